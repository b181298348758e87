#define _GNU_SOURCE
#include "CShims.h"

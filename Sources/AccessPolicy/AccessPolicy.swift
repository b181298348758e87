// AccessPolicy

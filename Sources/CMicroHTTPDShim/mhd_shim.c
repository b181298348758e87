#include "mhd_shim.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

struct MHD_Daemon *fpmod_mhd_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                   const struct MHD_OptionItem *options) {
  // The port argument is ignored: MHD_OPTION_SOCK_ADDR in `options` names address and port.
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t fpmod_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

int fpmod_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL || size == 0) return -1;
  const struct sockaddr *address = info->client_addr;
  const void *raw;
  if (address->sa_family == AF_INET) {
    raw = &((const struct sockaddr_in *) address)->sin_addr;
  } else if (address->sa_family == AF_INET6) {
    raw = &((const struct sockaddr_in6 *) address)->sin6_addr;
  } else {
    return -1;
  }
  return inet_ntop(address->sa_family, raw, text, (socklen_t) size) == NULL ? -1 : 0;
}

static void fpmod_mhd_log(void *cls, const char *format, va_list arguments) {
  struct fpmod_mhd_logger *logger = cls;
  if (logger == NULL || logger->callback == NULL || format == NULL) return;
  char message[512];
  vsnprintf(message, sizeof message, format, arguments);
  logger->callback(logger->cls, message);
}

intptr_t fpmod_mhd_logger_function(void) {
  return (intptr_t) &fpmod_mhd_log;
}

void *fpmod_mhd_tls_session(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  return info == NULL ? NULL : info->tls_session;
}

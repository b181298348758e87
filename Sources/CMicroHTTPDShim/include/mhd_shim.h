#ifndef FPMOD_MHD_SHIM_H
#define FPMOD_MHD_SHIM_H
// libmicrohttpd's variadic calls, which Swift cannot import, as fixed-argument functions.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon with its options as one MHD_OPTION_ARRAY (ended by MHD_OPTION_END).
struct MHD_Daemon *fpmod_mhd_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                   const struct MHD_OptionItem *options);

/// MHD_get_daemon_info(MHD_DAEMON_INFO_BIND_PORT): the port actually bound; 0 when unknown.
uint16_t fpmod_mhd_bound_port(struct MHD_Daemon *daemon);

/// MHD_get_connection_info(MHD_CONNECTION_INFO_CLIENT_ADDRESS) as text (inet_ntop); 0 on success.
int fpmod_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size);

/// MHD_get_connection_info(MHD_CONNECTION_INFO_GNUTLS_SESSION): the connection's GnuTLS session
/// (a gnutls_session_t), or NULL for plain HTTP.
void *fpmod_mhd_tls_session(struct MHD_Connection *connection);

/// MHD_OPTION_EXTERNAL_LOGGER's callback takes a va_list, which Swift cannot receive: this one
/// formats the message and hands the text to `callback` with `cls` (the option's second value
/// is a `struct fpmod_mhd_logger *`).
struct fpmod_mhd_logger {
  void (*callback)(void *cls, const char *message);
  void *cls;
};

/// The address of that formatting logger, for the option's first value.
intptr_t fpmod_mhd_logger_function(void);

#endif

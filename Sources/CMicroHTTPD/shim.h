#ifndef INTERLUDE_CMICROHTTPD_SHIM_H
#define INTERLUDE_CMICROHTTPD_SHIM_H
/* libmicrohttpd wants these types before its header. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_*_info are variadic, which Swift cannot call;
   these static inline wrappers give them fixed signatures. */

typedef void *(*interlude_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

static inline struct MHD_Daemon *interlude_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    interlude_uri_log_callback uri_log, void *uri_log_cls,
    unsigned int connection_limit, unsigned int timeout_seconds,
    size_t memory_limit, unsigned int thread_pool_size)
{
    struct MHD_OptionItem pool[] = {
        { thread_pool_size > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, thread_pool_size, NULL },
        { MHD_OPTION_END, 0, NULL }
    };
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_END);
}

static inline uint16_t interlude_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

static inline int interlude_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* A response holding its own copy of the bytes (MHD_RESPMEM_MUST_COPY):
   MUST_FREE would make libmicrohttpd free a Swift-owned buffer. */
static inline struct MHD_Response *interlude_mhd_response_copying(const void *bytes, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

#endif

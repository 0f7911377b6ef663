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
    MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls,
    unsigned int connection_limit, unsigned int timeout_seconds,
    size_t memory_limit, unsigned int thread_pool_size)
{
    /* No address: a daemon without a listening socket, fed by the direct
       path with MHD_add_connection (a thread pool needs a listening socket). */
    struct MHD_OptionItem extra[] = {
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL }
    };
    int next = 0;
    if (address != NULL) {
        extra[next].option = MHD_OPTION_SOCK_ADDR;
        extra[next].ptr_value = (void *)address;
        next++;
        if (thread_pool_size > 1) {
            extra[next].option = MHD_OPTION_THREAD_POOL_SIZE;
            extra[next].value = thread_pool_size;
        }
    }
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_ARRAY, extra,
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

/* The direct path (ServerCore+Direct): an epoll loop of our own in front of
   the daemons. epoll_event is a packed struct, so it is read here and handed
   to Swift as two plain arrays. */
#ifdef __linux__
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>

static inline int interlude_epoll_control(int epoll, int operation, int descriptor, uint32_t events) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = (uint64_t)(uint32_t)descriptor;
    return epoll_ctl(epoll, operation, descriptor, &event);
}

/* Up to `capacity` (at most 128) ready descriptors and their events. */
static inline int interlude_epoll_wait(int epoll, int32_t *descriptors, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[128];
    if (capacity > 128) capacity = 128;
    int count = epoll_wait(epoll, ready, capacity, timeout);
    for (int index = 0; index < count; index++) {
        descriptors[index] = (int32_t)(uint32_t)ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

/* A closed peer makes sendfile raise SIGPIPE, which no flag suppresses:
   the direct path's threads block it, as libmicrohttpd's own threads do. */
static inline void interlude_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static inline int interlude_errno(void) { return errno; }

/* accept4 is declared only under _GNU_SOURCE, which this header cannot set
   (<sys/socket.h> came first). Non-blocking and close-on-exec from the
   start: a posix_spawn between accept and fcntl would inherit the socket. */
extern int accept4(int, struct sockaddr *, socklen_t *, int);
static inline int interlude_accept(int listen_socket, struct sockaddr *address, socklen_t *length) {
    return accept4(listen_socket, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif

#endif

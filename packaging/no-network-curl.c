/*
 * Link-time stand-ins for the libcurl functions that Foundation's networking (FoundationNetworking,
 * URLSession) calls. scripts/package.sh compiles this file into the libcurl.a that the packaged
 * binary is linked with, so that the binary does not load libcurl.
 *
 * Why they are needed at all: FlyingFox (the preview server of `cardfeed serve`) ships a proxy
 * handler built on URLSession, and with the Swift runtime linked statically every object of a
 * dependency is linked, so libcurl's names must resolve. CardFeed itself makes no HTTP request and
 * never creates a URLSession: none of these functions is ever called. If one is, the binary
 * stops with a message rather than doing something undefined.
 *
 * The list is every curl_ name the toolchain's static Foundation networking uses:
 *   nm -u /opt/swift/usr/lib/swift_static/linux/{lib_CFURLSessionInterface,libFoundationNetworking}.a | grep curl_
 */
#include <stdio.h>
#include <stdlib.h>

static void cardfeed_no_network(const char *function) {
    fprintf(stderr, "cardfeed: internal error: %s called, but this build of cardfeed has no network client\n", function);
    abort();
}

#define NO_NETWORK(name) \
    void *name(void); \
    void *name(void) { cardfeed_no_network(#name); return NULL; }

NO_NETWORK(curl_easy_cleanup)
NO_NETWORK(curl_easy_getinfo)
NO_NETWORK(curl_easy_init)
NO_NETWORK(curl_easy_pause)
NO_NETWORK(curl_easy_setopt)
NO_NETWORK(curl_easy_strerror)
NO_NETWORK(curl_free)
NO_NETWORK(curl_global_init)
NO_NETWORK(curl_multi_add_handle)
NO_NETWORK(curl_multi_assign)
NO_NETWORK(curl_multi_cleanup)
NO_NETWORK(curl_multi_info_read)
NO_NETWORK(curl_multi_init)
NO_NETWORK(curl_multi_remove_handle)
NO_NETWORK(curl_multi_setopt)
NO_NETWORK(curl_multi_socket_action)
NO_NETWORK(curl_slist_append)
NO_NETWORK(curl_slist_free_all)
NO_NETWORK(curl_url)
NO_NETWORK(curl_url_get)
NO_NETWORK(curl_url_set)
NO_NETWORK(curl_version)
NO_NETWORK(curl_version_info)

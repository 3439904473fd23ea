#include "http_fetch.hpp"

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/version.hpp"

#ifdef PAYBACK_HAVE_CURL
#include <curl/curl.h>
#endif

namespace payback::cli {

#ifdef PAYBACK_HAVE_CURL

namespace {

struct Body {
    std::string text;
    std::size_t max_bytes;
    bool too_large = false;
};

// libcurl's write callback: appends, or stops the transfer (by taking fewer bytes) once over the limit.
std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto* body = static_cast<Body*>(user);
    const std::size_t bytes = size * count;
    if (body->text.size() + bytes > body->max_bytes) {
        body->too_large = true;
        return 0;
    }
    body->text.append(data, bytes);
    return bytes;
}

// curl_global_init is not thread-safe and must run once before any handle; the CLI fetches from one thread.
void init_curl_once() {
    static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
    if (!done) throw std::runtime_error("libcurl failed to initialise");
}

}  // namespace

bool http_fetch_available() { return true; }

std::string http_get(const std::string& url, std::size_t max_bytes, const std::string& key) {
    init_curl_once();
    CURL* curl = curl_easy_init();
    if (curl == nullptr) throw std::runtime_error("libcurl could not make a handle");
    Body body{.text = {}, .max_bytes = max_bytes};
    std::string error(CURL_ERROR_SIZE, '\0');
    const std::string agent = fmt::format("payback/{}", version());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, agent.c_str());
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip where the server offers it
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error.data());
    const CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    if (body.too_large)
        throw InputError(url, 0, key, fmt::format("the response is over the {} MiB a price file may have", max_bytes >> 20));
    if (code != CURLE_OK) {
        error.resize(error.find('\0'));
        throw InputError(url, 0, key,
                         fmt::format("could not fetch it ({}); nothing was changed",
                                     error.empty() ? curl_easy_strerror(code) : error));
    }
    if (status >= 400) throw InputError(url, 0, key, fmt::format("the server answered HTTP {}; nothing was changed", status));
    return std::move(body.text);
}

#else

bool http_fetch_available() { return false; }

std::string http_get(const std::string& url, std::size_t /*max_bytes*/, const std::string& key) {
    throw InputError(url, 0, key,
                     "this payback was built without libcurl, so it cannot fetch; download the file and use "
                     "payback catalog import");
}

#endif

}  // namespace payback::cli

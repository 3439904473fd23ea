// Fetching a public price file over HTTP(S) for `payback catalog update`, through libcurl.
#pragma once

#include <cstddef>
#include <string>

namespace payback::cli {

/// True when this build has an HTTP client (libcurl was found when it was built).
bool http_fetch_available();

/// The body of a GET of `url` (redirects followed, 60 s at most, at most `max_bytes`). Any failure
/// (no network, a refused connection, an HTTP status of 400 or more, a body too large) is an
/// InputError(url, 0, key, one line saying why); `key` names the option the URL came from.
std::string http_get(const std::string& url, std::size_t max_bytes, const std::string& key);

}  // namespace payback::cli

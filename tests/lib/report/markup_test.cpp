#include <catch2/catch.hpp>

#include "payback/report/markup.hpp"

TEST_CASE("escape_html turns the five markup characters into references and keeps the rest", "[report]") {
    CHECK(payback::escape_html("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    CHECK(payback::escape_html("RTX 3090 – 24 GB, 0.15 €/kWh") == "RTX 3090 – 24 GB, 0.15 €/kWh");
    CHECK(payback::escape_html("") == "");
}

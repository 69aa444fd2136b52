// Native unit tests of the store hub's core (lq_hub_core), one file per source under hub/: the
// claim rules, the request bodies, the claim service against a real SQLite file.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

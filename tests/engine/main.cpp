// Catch2's runner for the three Catch2 suites (tests/engine/; tests/service/native/ with
// tests/front/; tests/hub/native/), compiled once per build tree (CMake's lq_catch_main).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

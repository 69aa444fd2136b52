// Catch2's runner for the three Catch2 suites (tests/engine/, tests/service_native/,
// tests/hub_native/), compiled once per build tree (CMake's lq_catch_main).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

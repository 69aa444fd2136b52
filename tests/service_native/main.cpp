// Native unit tests of the service's core (lq_service_core), one file per source file under
// service/: http/request_framing_test.cpp for service/http/request_framing.*, and so on.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

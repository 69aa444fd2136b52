// Native unit tests of the service's core (lq_service_core) and the front it stands on
// (lq_front_core), one file per source file: http/request_framing_test.cpp for
// front/http/request_framing.*, store/store_test.cpp for service/store/store.*, and so on.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

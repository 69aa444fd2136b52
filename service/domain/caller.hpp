// Who is asking: the user an access token names and that user's merchant, as the HTTP face's
// authentication (http/auth) establishes them for every operation of the domain.
#pragma once

#include <string>

namespace lq::service {

struct caller {
  std::string user_id;
  std::string merchant_id;
};

}  // namespace lq::service

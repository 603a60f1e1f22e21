// Out-of-line part of the exception vocabulary.
#include "base/errors.h"

#include <string>

namespace vka {

void internal_error(const char* what, const char* file, int line) {
  throw InternalError(std::string("vkarray internal error: ") + what + " failed at " + file + ":" +
                      std::to_string(line) + " (please report this)");
}

}  // namespace vka

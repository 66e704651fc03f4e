#include "pools/java/thread_factory.h"

#include <system_error>

namespace poolscope::java {

namespace {
std::atomic<int> poolNumber{1};
}  // namespace

DefaultThreadFactory::DefaultThreadFactory() : namePrefix_("pool-" + std::to_string(poolNumber++) + "-thread-") {}

std::optional<Thread> DefaultThreadFactory::newThread(std::move_only_function<void()> r) {
  try {
    return Thread(namePrefix_ + std::to_string(threadNumber_++), std::move(r));
  } catch (const std::system_error&) {
    return std::nullopt;
  }
}

}  // namespace poolscope::java

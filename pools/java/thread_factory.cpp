#include "pools/java/thread_factory.h"

namespace poolscope::java {

namespace {
std::atomic<int> poolNumber{1};
}  // namespace

DefaultThreadFactory::DefaultThreadFactory() : namePrefix("pool-" + std::to_string(poolNumber++) + "-thread-") {}

std::optional<UnstartedThread> DefaultThreadFactory::newThread(std::move_only_function<void()> r) {
  return UnstartedThread{namePrefix + std::to_string(threadNumber++), std::move(r)};
}

}  // namespace poolscope::java

// The waiting queue's ring-buffer deque (after gammazero/deque's deque_test.go).
#include "pools/gammazero/deque.h"

#include <memory>
#include <stdexcept>

#include <catch2/catch.hpp>

using poolscope::gammazero::Deque;

TEST_CASE("deque: push_back/pop_front is FIFO, push_back/pop_back is LIFO") {
  Deque<int> q;
  for (int i = 0; i < 5; ++i) q.push_back(i);
  CHECK(q.size() == 5);
  CHECK(q.front() == 0);
  CHECK(q.back() == 4);
  CHECK(q.pop_front() == 0);
  CHECK(q.pop_back() == 4);
  CHECK(q.pop_front() == 1);
  CHECK(q.pop_back() == 3);
  CHECK(q.pop_front() == 2);
  CHECK(q.empty());

  q.push_front(1);
  q.push_front(2);  // [2 1]
  q.push_back(3);   // [2 1 3]
  CHECK(q.at(0) == 2);
  CHECK(q.at(1) == 1);
  CHECK(q.at(2) == 3);
}

TEST_CASE("deque: the buffer is allocated on first use and doubles when full") {
  Deque<int> q;
  CHECK(q.capacity() == 0);  // an unused queue costs nothing
  q.push_back(0);
  CHECK(q.capacity() == Deque<int>::kMinCapacity);
  for (int i = 1; i < 16; ++i) q.push_back(i);
  CHECK(q.capacity() == 16);  // exactly full
  q.push_back(16);
  CHECK(q.capacity() == 32);
  for (int i = 17; i < 100; ++i) q.push_back(i);
  CHECK(q.capacity() == 128);  // 16 -> 32 -> 64 -> 128: powers of two only
  for (int i = 0; i < 100; ++i) REQUIRE(q.pop_front() == i);
}

TEST_CASE("deque: it halves when a removal leaves it a quarter full, down to the base capacity") {
  Deque<int> q;
  for (int i = 0; i < 100; ++i) q.push_back(i);
  REQUIRE(q.capacity() == 128);
  while (q.size() > 33) q.pop_front();
  CHECK(q.capacity() == 128);  // 33 of 128: more than a quarter
  q.pop_front();
  CHECK(q.size() == 32);
  CHECK(q.capacity() == 64);  // exactly a quarter: halved, now half full
  while (q.size() > 16) q.pop_back();
  CHECK(q.capacity() == 32);
  while (q.size() > 8) q.pop_front();
  CHECK(q.capacity() == 16);
  while (!q.empty()) q.pop_front();
  CHECK(q.capacity() == 16);  // never below the minimum
  // The elements kept their order through every resize.
  for (int i = 0; i < 40; ++i) q.push_back(i);
  for (int i = 0; i < 40; ++i) REQUIRE(q.pop_front() == i);
}

TEST_CASE("deque: set_base_cap keeps room for a known depth") {
  Deque<int> q;
  q.set_base_cap(40);  // rounded up to 64
  q.push_back(1);
  CHECK(q.capacity() == 64);
  for (int i = 0; i < 200; ++i) q.push_back(i);
  CHECK(q.capacity() == 256);
  while (!q.empty()) q.pop_front();
  CHECK(q.capacity() == 64);
}

TEST_CASE("deque: order survives wrapping around the buffer and growing while wrapped") {
  Deque<int> q;
  int next_in = 0, next_out = 0;
  // Move the head round the ring several times at a steady depth of 10.
  for (int i = 0; i < 10; ++i) q.push_back(next_in++);
  for (int i = 0; i < 50; ++i) {
    q.push_back(next_in++);
    REQUIRE(q.pop_front() == next_out++);
  }
  CHECK(q.capacity() == 16);
  // Grow while head and tail straddle the end of the buffer.
  for (int i = 0; i < 30; ++i) q.push_back(next_in++);
  CHECK(q.capacity() == 64);
  while (!q.empty()) REQUIRE(q.pop_front() == next_out++);
  CHECK(next_out == next_in);

  // The same from the other end: push_front wraps below index 0.
  for (int i = 0; i < 20; ++i) q.push_front(i);
  for (int i = 0; i < 20; ++i) REQUIRE(q.pop_back() == i);
}

TEST_CASE("deque: holds move-only elements and releases each one as it is popped") {
  Deque<std::unique_ptr<int>> q;
  auto shared = std::make_shared<int>(7);
  Deque<std::shared_ptr<int>> refs;
  for (int i = 0; i < 20; ++i) {
    q.push_back(std::make_unique<int>(i));
    refs.push_back(shared);
  }
  CHECK(*q.pop_front() == 0);
  CHECK(shared.use_count() == 21);
  refs.pop_front();
  CHECK(shared.use_count() == 20);  // the slot no longer holds a copy
  refs.clear();
  CHECK(shared.use_count() == 1);
  CHECK(refs.capacity() == 32);  // clear keeps the buffer
}

TEST_CASE("deque: removing from an empty deque or reading past the end throws (Go panics)") {
  Deque<int> q;
  CHECK_THROWS_AS(q.pop_front(), std::out_of_range);
  CHECK_THROWS_AS(q.pop_back(), std::out_of_range);
  CHECK_THROWS_AS(q.front(), std::out_of_range);
  q.push_back(1);
  CHECK_THROWS_AS(q.at(1), std::out_of_range);
  CHECK(q.back() == 1);
}

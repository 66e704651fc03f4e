// The waiting queue's container: a double-ended queue on a ring buffer, like
// github.com/gammazero/deque (which workerpool.go uses for its waitingQueue).
//
// The buffer's length is always a power of two, so "wrap around" is a mask,
// not a division: i % n == i & (n - 1). It grows by doubling when full and
// shrinks by half when a removal leaves it a quarter full, never below its
// base capacity (16 unless set_base_cap says more). A burst of 10,000 queued
// tasks costs about log2(10,000) = 10 reallocations on the way up and as many
// on the way down, and an idle queue holds only the base capacity.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>

namespace poolscope::gammazero {

template <class T>
class Deque {
 public:
  // The smallest capacity (a power of two, so the mask works).
  static constexpr std::size_t kMinCapacity = 16;

  Deque() = default;
  Deque(const Deque&) = delete;
  Deque& operator=(const Deque&) = delete;

  std::size_t size() const { return count_; }  // Go's Len
  bool empty() const { return count_ == 0; }
  std::size_t capacity() const { return cap_; }  // Go's Cap

  // FIFO with pop_front, LIFO with pop_back.
  void push_back(T elem) {
    grow_if_full();
    buf_[tail_] = std::move(elem);
    tail_ = next(tail_);
    ++count_;
  }
  void push_front(T elem) {
    grow_if_full();
    head_ = prev(head_);
    buf_[head_] = std::move(elem);
    ++count_;
  }

  // Removing from an empty deque is a bug: Go panics, this throws.
  T pop_front() {
    if (count_ == 0) throw std::out_of_range("deque: pop_front() called on empty queue");
    // The slot is reset to T{} (Go stores the zero value) so a popped task's
    // captures are released now, not when the slot is next overwritten.
    T ret = std::exchange(buf_[head_], T{});
    head_ = next(head_);
    --count_;
    shrink_if_excess();
    return ret;
  }
  T pop_back() {
    if (count_ == 0) throw std::out_of_range("deque: pop_back() called on empty queue");
    tail_ = prev(tail_);
    T ret = std::exchange(buf_[tail_], T{});
    --count_;
    shrink_if_excess();
    return ret;
  }

  T& front() { return at(0); }
  T& back() { return at(count_ - 1); }
  // at(0) is the front, at(size() - 1) the back.
  T& at(std::size_t i) {
    if (i >= count_) throw std::out_of_range("deque: index out of range");
    return buf_[(head_ + i) & (cap_ - 1)];
  }

  // Removes every element but keeps the capacity.
  void clear() {
    for (; count_ > 0; --count_, head_ = next(head_)) buf_[head_] = T{};
    head_ = tail_ = 0;
  }

  // The deque never shrinks below room for `base` elements (rounded up to a
  // power of two), for a queue whose normal depth is known.
  void set_base_cap(std::size_t base) {
    min_cap_ = kMinCapacity;
    while (min_cap_ < base) min_cap_ <<= 1;
  }

 private:
  std::size_t next(std::size_t i) const { return (i + 1) & (cap_ - 1); }  // bitwise modulus
  std::size_t prev(std::size_t i) const { return (i - 1) & (cap_ - 1); }

  void grow_if_full() {
    if (count_ != cap_) return;
    if (cap_ == 0) {
      if (min_cap_ == 0) min_cap_ = kMinCapacity;
      resize(min_cap_);
      return;
    }
    resize(count_ << 1);
  }

  // Only at exactly a quarter full: the next shrink waits until the deque has
  // halved again, so pushing and popping around one size never thrashes.
  void shrink_if_excess() {
    if (cap_ > min_cap_ && (count_ << 2) == cap_) resize(count_ << 1);
  }

  // Moves the elements, in order, to the start of a new buffer.
  void resize(std::size_t new_cap) {
    auto buf = std::make_unique<T[]>(new_cap);
    for (std::size_t i = 0; i < count_; ++i) buf[i] = std::move(buf_[(head_ + i) & (cap_ - 1)]);
    buf_ = std::move(buf);
    cap_ = new_cap;
    head_ = 0;
    tail_ = count_ & (cap_ - 1);
  }

  std::unique_ptr<T[]> buf_;
  std::size_t cap_ = 0;  // buf_'s length: 0 or a power of two
  std::size_t head_ = 0;
  std::size_t tail_ = 0;
  std::size_t count_ = 0;
  std::size_t min_cap_ = 0;
};

}  // namespace poolscope::gammazero

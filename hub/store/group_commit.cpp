#include "hub/store/group_commit.hpp"

#include <utility>

namespace lq::hub {

// The emulator's wasm build has no threads (emulator/): there each job is its own batch, written
// and committed on the caller's thread before run() returns.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define LQ_GROUP_COMMIT_INLINE 1
#endif

group_commit::group_commit(front::database& db, size_t max_batch)
    : db_(db), max_batch_(max_batch == 0 ? 1 : max_batch) {
#ifndef LQ_GROUP_COMMIT_INLINE
  writer_ = std::thread([this] { write_loop(); });
#endif
}

group_commit::~group_commit() {
#ifndef LQ_GROUP_COMMIT_INLINE
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_one();
  writer_.join();
#endif
}

void group_commit::run(const std::function<void(front::database&)>& job) {
  pending mine{&job, nullptr, false};
#ifdef LQ_GROUP_COMMIT_INLINE
  std::deque<pending*> batch{&mine};
  write_batch(batch);
  ++commits_;
#else
  std::unique_lock<std::mutex> lock(mutex_);
  queue_.push_back(&mine);
  queued_.notify_one();
  finished_.wait(lock, [&mine] { return mine.done; });
#endif
  if (mine.failure) std::rethrow_exception(mine.failure);
}

size_t group_commit::commits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return commits_;
}

void group_commit::write_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queued_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;
    std::deque<pending*> batch;
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(queue_.front());
      queue_.pop_front();
    }
    lock.unlock();
    write_batch(batch);
    lock.lock();
    for (pending* each : batch) each->done = true;
    ++commits_;
    finished_.notify_all();
  }
}

void group_commit::write_batch(std::deque<pending*>& batch) {
  try {
    front::transaction tx(db_);
    for (pending* each : batch) {
      db_.exec("SAVEPOINT job");
      try {
        (*each->job)(db_);
        db_.exec("RELEASE job");
      } catch (...) {
        each->failure = std::current_exception();
        db_.exec("ROLLBACK TO job");
        db_.exec("RELEASE job");
      }
    }
    tx.commit();
  } catch (...) {
    // BEGIN, a savepoint or COMMIT failed: the transaction is rolled back, nothing of the batch
    // was written.
    const std::exception_ptr failure = std::current_exception();
    for (pending* each : batch) each->failure = failure;
  }
}

}  // namespace lq::hub

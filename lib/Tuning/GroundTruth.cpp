//===- GroundTruth.cpp - Exhaustive costs of a tuning space ---------------===//

#include "raf/Tuning/GroundTruth.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <limits>

using namespace raf::tuning;

uint64_t GroundTruth::numValid() const {
  uint64_t n = 0;
  for (double c : costs)
    n += std::isfinite(c);
  return n;
}

double GroundTruth::optimum() const {
  double best = std::numeric_limits<double>::infinity();
  for (double c : costs)
    best = std::min(best, c);
  return best;
}

GroundTruth raf::tuning::computeGroundTruth(
    TuningSpace &space,
    const std::function<void(uint64_t, uint64_t, uint64_t)> &progress,
    uint64_t progressEvery) {
  using Clock = std::chrono::steady_clock;
  GroundTruth truth;
  uint64_t size = space.size();
  truth.checkValid.assign(size, 0);
  truth.costs.assign(size, std::numeric_limits<double>::infinity());
  uint64_t valid = 0;
  for (uint64_t index = 0; index < size; ++index) {
    Point point = space.toPoint(index);
    Clock::time_point start = Clock::now();
    bool checked = space.checkValidity(point).valid;
    truth.checkSeconds +=
        std::chrono::duration<double>(Clock::now() - start).count();
    ++truth.checks;
    truth.checkValid[index] = checked;
    if (checked) {
      start = Clock::now();
      std::optional<double> cost = space.measure(point);
      truth.measureSeconds +=
          std::chrono::duration<double>(Clock::now() - start).count();
      ++truth.measurements;
      if (cost) {
        truth.costs[index] = *cost;
        ++valid;
      }
    }
    if (progress && ((index + 1) % progressEvery == 0 || index + 1 == size))
      progress(index + 1, size, valid);
  }
  return truth;
}

llvm::Error raf::tuning::saveGroundTruth(llvm::StringRef path,
                                         llvm::StringRef key,
                                         const GroundTruth &truth) {
  std::error_code ec;
  // Written to a temporary file and renamed, so that an interrupted run
  // never leaves a truncated table behind.
  std::string temporary = (path + ".tmp").str();
  {
    llvm::raw_fd_ostream os(temporary, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return llvm::createStringError(ec, "cannot write '" + temporary +
                                             "': " + ec.message());
    os << "raf-tune ground truth 1\n" << key << "\n";
    os << truth.costs.size() << " " << llvm::format("%.9g", truth.checkSeconds)
       << " " << truth.checks << " "
       << llvm::format("%.9g", truth.measureSeconds) << " "
       << truth.measurements << "\n";
    for (size_t i = 0; i < truth.costs.size(); ++i) {
      os << int(truth.checkValid[i]) << " ";
      if (std::isfinite(truth.costs[i]))
        os << llvm::format("%.17g", truth.costs[i]);
      else
        os << "inf";
      os << "\n";
    }
    os.close();
    if (os.has_error())
      return llvm::createStringError(os.error(),
                                     "cannot write '" + temporary + "'");
  }
  if (std::error_code rename = llvm::sys::fs::rename(temporary, path))
    return llvm::createStringError(rename, "cannot rename '" + temporary +
                                               "' to '" + path + "'");
  return llvm::Error::success();
}

llvm::Expected<std::optional<GroundTruth>>
raf::tuning::loadGroundTruth(llvm::StringRef path, llvm::StringRef key,
                             uint64_t size) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return std::optional<GroundTruth>();
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  auto malformed = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'" + path + "': " + what);
  };
  if (lines.size() < 3 || lines[0] != "raf-tune ground truth 1")
    return malformed("not a ground-truth table");
  if (lines[1] != key)
    return std::optional<GroundTruth>();
  llvm::SmallVector<llvm::StringRef> header;
  lines[2].split(header, ' ');
  uint64_t count = 0;
  GroundTruth truth;
  if (header.size() != 5 || header[0].getAsInteger(10, count) ||
      header[2].getAsInteger(10, truth.checks) ||
      header[4].getAsInteger(10, truth.measurements) ||
      !llvm::to_float(header[1], truth.checkSeconds) ||
      !llvm::to_float(header[3], truth.measureSeconds))
    return malformed("bad header '" + lines[2] + "'");
  if (count != size)
    return std::optional<GroundTruth>();
  if (lines.size() != count + 3)
    return malformed("expected " + llvm::Twine(count) + " rows, found " +
                     llvm::Twine(lines.size() - 3));
  for (uint64_t i = 0; i < count; ++i) {
    auto [flag, cost] = lines[i + 3].split(' ');
    double value;
    if (cost == "inf")
      value = std::numeric_limits<double>::infinity();
    else if (!llvm::to_float(cost, value))
      return malformed("bad row " + llvm::Twine(i) + ": '" + lines[i + 3] +
                       "'");
    if (flag != "0" && flag != "1")
      return malformed("bad row " + llvm::Twine(i) + ": '" + lines[i + 3] +
                       "'");
    truth.checkValid.push_back(flag == "1");
    truth.costs.push_back(value);
  }
  return std::optional<GroundTruth>(std::move(truth));
}

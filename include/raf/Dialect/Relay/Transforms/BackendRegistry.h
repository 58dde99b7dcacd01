//===- BackendRegistry.h - backends ("operator dialects") -------*- C++ -*-===//
//
// RAF's operator dialects (RAF paper §3.2.1, Figs. 4-5; §3.2.2, Tab. 1) as a
// registry:
//
//  * a backend has a name and the devices it is enabled on;
//  * a backend registers itself for a base operator (`relay.nn.conv2d`, ...)
//    with a dispatching priority and, optionally, a predicate on the
//    operation that must hold for the backend to take it (an accelerator
//    that only supports some shapes or dtypes);
//  * fusion is a global list of entries sorted by descending, unique
//    priority: patterns (a matcher owned by a backend) and rule-based fusion
//    (the backend whose compiler fuses by operator kind).
//
// The passes `--raf-dispatch` and `--raf-fuse` read the global registry, so a
// library adds a backend by registering it there before the passes run.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_BACKENDREGISTRY_H
#define RAF_DIALECT_RELAY_TRANSFORMS_BACKENDREGISTRY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace raf::relay {

/// The devices a backend can be enabled on.
enum class DeviceKind { CPU, CUDA };

/// Parses `cpu` / `cuda`.
std::optional<DeviceKind> parseDeviceKind(llvm::StringRef name);
llvm::StringRef stringifyDeviceKind(DeviceKind device);

/// Decides whether a backend takes one particular operation (e.g. only int8
/// convolutions whose shapes map onto an accelerator's GEMM core).
using BackendOpPredicate = std::function<bool(mlir::Operation *)>;

/// One backend's registration for a base operator.
struct BackendOpEntry {
  std::string backend;
  int priority = 0;
  /// Empty: the backend takes every instance of the operator.
  BackendOpPredicate predicate;

  bool accepts(mlir::Operation *op) const {
    return !predicate || predicate(op);
  }
};

/// Matches a fusion pattern whose root (last operation) is `root`. On a
/// match, appends every operation of the match (root included, any order)
/// to `matched` and returns true. The fusion pass checks the rest: same
/// block, relay operators only, intermediate values used only inside the
/// match, convexity.
using FusionMatcher = std::function<bool(
    mlir::Operation *root, llvm::SmallVectorImpl<mlir::Operation *> &matched)>;

/// An entry of the global fusion list: a pattern, or the rule-based fusion of
/// one backend (no matcher).
struct FusionEntry {
  std::string name;
  std::string backend;
  int priority = 0;
  /// Empty for rule-based fusion.
  FusionMatcher matcher;

  bool isRuleBased() const { return !matcher; }
};

/// Which backends a pass may use: the device, an optional preference list
/// (filters and reorders dispatch lists, like RAF's DialectPreference) and
/// the disabled backends (removed from every list and pattern).
struct BackendSelection {
  DeviceKind device = DeviceKind::CPU;
  llvm::SmallVector<std::string> preference;
  llvm::SmallVector<std::string> disabled;
};

class BackendRegistry {
public:
  /// Registers a backend enabled on `enabledOn`. Registering a name twice is
  /// an error.
  llvm::Error registerBackend(llvm::StringRef name,
                              llvm::ArrayRef<DeviceKind> enabledOn);

  /// Registers `backend` for the base operator `baseOp` (the full operation
  /// name, e.g. `relay.nn.dense`). Errors: unknown backend; the backend is
  /// already registered for `baseOp`; another backend already uses
  /// `priority` for `baseOp`.
  llvm::Error registerOp(llvm::StringRef baseOp, llvm::StringRef backend,
                         int priority = 10,
                         BackendOpPredicate predicate = nullptr);

  /// Registers `backend` for every base operator the registry is asked
  /// about, as RAF's TVM backend registers all base operators. The same
  /// conflicts as registerOp are errors, checked against every operator.
  llvm::Error registerAllOps(llvm::StringRef backend, int priority = 10,
                             BackendOpPredicate predicate = nullptr);

  /// Adds a pattern to the global fusion list. Errors: unknown backend;
  /// `priority` already used by another fusion entry.
  llvm::Error registerFusionPattern(llvm::StringRef name,
                                    llvm::StringRef backend, int priority,
                                    FusionMatcher matcher);

  /// Adds the rule-based fusion of `backend` to the global fusion list. It
  /// groups the operations whose top dispatch choice is `backend`.
  llvm::Error registerRuleBasedFusion(llvm::StringRef name,
                                      llvm::StringRef backend, int priority);

  bool hasBackend(llvm::StringRef name) const;
  bool isEnabledOn(llvm::StringRef backend, DeviceKind device) const;
  /// Backend names in registration order.
  llvm::SmallVector<std::string> getBackendNames() const;

  /// The entries of `baseOp` whose backend is enabled on `device`, by
  /// descending priority; with a non-empty `preference`, only the preferred
  /// backends, in the preference's order.
  llvm::SmallVector<BackendOpEntry>
  dispatchList(llvm::StringRef baseOp, DeviceKind device,
               llvm::ArrayRef<std::string> preference = {}) const;

  /// The first entry of the dispatch list with priority > 0 whose backend is
  /// not in `skip`. Entries with a predicate are never chosen here (there is
  /// no operation to evaluate it on); use the Operation overload.
  std::optional<BackendOpEntry>
  dispatch(llvm::StringRef baseOp, DeviceKind device,
           llvm::ArrayRef<std::string> skip = {},
           llvm::ArrayRef<std::string> preference = {}) const;

  /// As above for one operation: entries whose predicate rejects `op` are
  /// passed over.
  std::optional<BackendOpEntry>
  dispatch(mlir::Operation *op, DeviceKind device,
           llvm::ArrayRef<std::string> skip = {},
           llvm::ArrayRef<std::string> preference = {}) const;

  /// Convenience: dispatch under a selection (device, disabled, preference).
  std::optional<BackendOpEntry>
  dispatch(mlir::Operation *op, const BackendSelection &selection) const;

  /// The entry of `backend` for `baseOp`, whatever its priority or device.
  std::optional<BackendOpEntry> lower(llvm::StringRef baseOp,
                                      llvm::StringRef backend) const;

  /// The whole fusion list, by descending priority.
  llvm::ArrayRef<FusionEntry> getFusionEntries() const { return fusionEntries; }

  /// The fusion entries usable under `selection`: backend enabled on the
  /// device, not disabled and, with a preference, preferred.
  llvm::SmallVector<const FusionEntry *>
  getFusionEntries(const BackendSelection &selection) const;

private:
  struct BackendInfo {
    std::string name;
    llvm::SmallVector<DeviceKind, 2> enabledOn;
  };

  llvm::Error checkOpConflict(llvm::StringRef baseOp,
                              llvm::ArrayRef<BackendOpEntry> existing,
                              llvm::StringRef backend, int priority) const;
  llvm::Error checkFusionPriority(llvm::StringRef backend, int priority) const;
  void insertFusionEntry(FusionEntry entry);

  llvm::SmallVector<BackendInfo> backends;
  /// Ordered by name, so conflicts are found and reported deterministically.
  std::map<std::string, llvm::SmallVector<BackendOpEntry>, std::less<>>
      opEntries;
  llvm::SmallVector<BackendOpEntry> allOpsEntries;
  llvm::SmallVector<FusionEntry> fusionEntries;
};

/// The registry the passes use. The default backends (DefaultBackends.h) are
/// registered on first use; other libraries add theirs before running the
/// passes. Not synchronised: register during start-up, not while passes run.
BackendRegistry &getBackendRegistry();

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_BACKENDREGISTRY_H

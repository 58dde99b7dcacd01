//===- BackendRegistry.cpp - backends ("operator dialects") ---------------===//

#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

#include "raf/Dialect/Relay/Transforms/DefaultBackends.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using namespace raf::relay;

std::optional<DeviceKind> raf::relay::parseDeviceKind(StringRef name) {
  if (name == "cpu")
    return DeviceKind::CPU;
  if (name == "cuda")
    return DeviceKind::CUDA;
  return std::nullopt;
}

StringRef raf::relay::stringifyDeviceKind(DeviceKind device) {
  switch (device) {
  case DeviceKind::CPU:
    return "cpu";
  case DeviceKind::CUDA:
    return "cuda";
  }
  llvm_unreachable("unknown device kind");
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

static bool contains(ArrayRef<std::string> names, StringRef name) {
  return llvm::is_contained(names, name);
}

/// Sorts by descending priority; ties keep registration order.
static void sortByPriority(SmallVectorImpl<BackendOpEntry> &entries) {
  llvm::stable_sort(entries,
                    [](const BackendOpEntry &a, const BackendOpEntry &b) {
                      return a.priority > b.priority;
                    });
}

Error BackendRegistry::registerBackend(StringRef name,
                                       ArrayRef<DeviceKind> enabledOn) {
  if (name.empty())
    return makeError("a backend needs a non-empty name");
  if (hasBackend(name))
    return makeError("backend '" + name + "' is already registered");
  backends.push_back({name.str(), SmallVector<DeviceKind, 2>(enabledOn)});
  return Error::success();
}

bool BackendRegistry::hasBackend(StringRef name) const {
  return llvm::any_of(backends,
                      [&](const BackendInfo &b) { return b.name == name; });
}

bool BackendRegistry::isEnabledOn(StringRef backend, DeviceKind device) const {
  for (const BackendInfo &info : backends)
    if (info.name == backend)
      return llvm::is_contained(info.enabledOn, device);
  return false;
}

SmallVector<std::string> BackendRegistry::getBackendNames() const {
  SmallVector<std::string> names;
  for (const BackendInfo &info : backends)
    names.push_back(info.name);
  return names;
}

Error BackendRegistry::checkOpConflict(StringRef baseOp,
                                       ArrayRef<BackendOpEntry> existing,
                                       StringRef backend, int priority) const {
  for (const BackendOpEntry &entry : existing) {
    if (entry.backend == backend)
      return makeError("backend '" + backend + "' is already registered for '" +
                       baseOp + "'");
    if (entry.priority == priority)
      return makeError("priority " + Twine(priority) + " of '" + baseOp +
                       "' is already taken by backend '" + entry.backend + "'");
  }
  return Error::success();
}

Error BackendRegistry::registerOp(StringRef baseOp, StringRef backend,
                                  int priority, BackendOpPredicate predicate) {
  if (!hasBackend(backend))
    return makeError("unknown backend '" + backend + "'");
  if (Error err = checkOpConflict(baseOp, allOpsEntries, backend, priority))
    return err;
  SmallVector<BackendOpEntry> &entries = opEntries[baseOp.str()];
  if (Error err = checkOpConflict(baseOp, entries, backend, priority))
    return err;
  entries.push_back({backend.str(), priority, std::move(predicate)});
  sortByPriority(entries);
  return Error::success();
}

Error BackendRegistry::registerAllOps(StringRef backend, int priority,
                                      BackendOpPredicate predicate) {
  if (!hasBackend(backend))
    return makeError("unknown backend '" + backend + "'");
  if (Error err =
          checkOpConflict("every operator", allOpsEntries, backend, priority))
    return err;
  for (const auto &[baseOp, entries] : opEntries)
    if (Error err = checkOpConflict(baseOp, entries, backend, priority))
      return err;
  allOpsEntries.push_back({backend.str(), priority, std::move(predicate)});
  return Error::success();
}

Error BackendRegistry::checkFusionPriority(StringRef backend,
                                           int priority) const {
  if (!hasBackend(backend))
    return makeError("unknown backend '" + backend + "'");
  for (const FusionEntry &entry : fusionEntries)
    if (entry.priority == priority)
      return makeError("fusion priority " + Twine(priority) +
                       " is already taken by '" + entry.name +
                       "' of backend '" + entry.backend + "'");
  return Error::success();
}

void BackendRegistry::insertFusionEntry(FusionEntry entry) {
  auto *pos = llvm::find_if(fusionEntries, [&](const FusionEntry &e) {
    return e.priority < entry.priority;
  });
  fusionEntries.insert(pos, std::move(entry));
}

Error BackendRegistry::registerFusionPattern(StringRef name, StringRef backend,
                                             int priority,
                                             FusionMatcher matcher) {
  if (!matcher)
    return makeError("fusion pattern '" + name + "' has no matcher");
  if (Error err = checkFusionPriority(backend, priority))
    return err;
  insertFusionEntry({name.str(), backend.str(), priority, std::move(matcher)});
  return Error::success();
}

Error BackendRegistry::registerRuleBasedFusion(StringRef name,
                                               StringRef backend,
                                               int priority) {
  if (Error err = checkFusionPriority(backend, priority))
    return err;
  insertFusionEntry({name.str(), backend.str(), priority, nullptr});
  return Error::success();
}

SmallVector<BackendOpEntry>
BackendRegistry::dispatchList(StringRef baseOp, DeviceKind device,
                              ArrayRef<std::string> preference) const {
  SmallVector<BackendOpEntry> all(allOpsEntries);
  auto it = opEntries.find(baseOp);
  if (it != opEntries.end())
    all.append(it->second.begin(), it->second.end());
  sortByPriority(all);

  SmallVector<BackendOpEntry> enabled;
  for (BackendOpEntry &entry : all)
    if (isEnabledOn(entry.backend, device))
      enabled.push_back(std::move(entry));
  if (preference.empty())
    return enabled;

  SmallVector<BackendOpEntry> preferred;
  for (const std::string &name : preference)
    for (const BackendOpEntry &entry : enabled)
      if (entry.backend == name)
        preferred.push_back(entry);
  return preferred;
}

std::optional<BackendOpEntry>
BackendRegistry::dispatch(StringRef baseOp, DeviceKind device,
                          ArrayRef<std::string> skip,
                          ArrayRef<std::string> preference) const {
  for (BackendOpEntry &entry : dispatchList(baseOp, device, preference))
    if (entry.priority > 0 && !contains(skip, entry.backend) &&
        !entry.predicate)
      return std::move(entry);
  return std::nullopt;
}

std::optional<BackendOpEntry>
BackendRegistry::dispatch(mlir::Operation *op, DeviceKind device,
                          ArrayRef<std::string> skip,
                          ArrayRef<std::string> preference) const {
  for (BackendOpEntry &entry :
       dispatchList(op->getName().getStringRef(), device, preference))
    if (entry.priority > 0 && !contains(skip, entry.backend) &&
        entry.accepts(op))
      return std::move(entry);
  return std::nullopt;
}

std::optional<BackendOpEntry>
BackendRegistry::dispatch(mlir::Operation *op,
                          const BackendSelection &selection) const {
  return dispatch(op, selection.device, selection.disabled,
                  selection.preference);
}

std::optional<BackendOpEntry> BackendRegistry::lower(StringRef baseOp,
                                                     StringRef backend) const {
  auto it = opEntries.find(baseOp);
  if (it != opEntries.end())
    for (const BackendOpEntry &entry : it->second)
      if (entry.backend == backend)
        return entry;
  for (const BackendOpEntry &entry : allOpsEntries)
    if (entry.backend == backend)
      return entry;
  return std::nullopt;
}

SmallVector<const FusionEntry *>
BackendRegistry::getFusionEntries(const BackendSelection &selection) const {
  SmallVector<const FusionEntry *> usable;
  for (const FusionEntry &entry : fusionEntries) {
    if (!isEnabledOn(entry.backend, selection.device) ||
        contains(selection.disabled, entry.backend))
      continue;
    if (!selection.preference.empty() &&
        !contains(selection.preference, entry.backend))
      continue;
    usable.push_back(&entry);
  }
  return usable;
}

BackendRegistry &raf::relay::getBackendRegistry() {
  static BackendRegistry registry = [] {
    BackendRegistry defaults;
    registerDefaultBackends(defaults);
    return defaults;
  }();
  return registry;
}

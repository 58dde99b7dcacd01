//===- RuntimeValue.h - values of the reference evaluator -------*- C++ -*-===//
//
// A Relay program computes with five kinds of values: tensors, tuples of
// values, closures (a relay.fn plus the values of its free variables),
// reference cells (relay.ref_*) and module functions turned into values
// (relay.global_ref). RuntimeValue is one of them.
//
// Tensors, tuples and closures are immutable and shared by copy. A reference
// value is a handle: copies point to the same cell, so a write through one is
// seen through all of them, as Relay's `:=` requires.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_RUNTIMEVALUE_H
#define RAF_RUNTIME_RUNTIMEVALUE_H

#include "raf/Runtime/HostTensor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace raf::runtime {

class RuntimeValue {
public:
  enum class Kind { Tensor, Tuple, Closure, Reference, Function };

  /// An empty tuple (the unit value `()`).
  RuntimeValue();
  /// A tensor value.
  explicit RuntimeValue(HostTensor tensor);

  static RuntimeValue tensor(HostTensor tensor) {
    return RuntimeValue(std::move(tensor));
  }
  static RuntimeValue tuple(llvm::ArrayRef<RuntimeValue> elements);
  /// `fn` is a relay.fn operation; it must outlive the value. `captured`
  /// holds the value of every free variable of its body at the time the
  /// closure is created.
  static RuntimeValue
  closure(mlir::Operation *fn,
          llvm::ArrayRef<std::pair<mlir::Value, RuntimeValue>> captured);
  /// A fresh reference cell holding `initial`.
  static RuntimeValue reference(RuntimeValue initial);
  /// `function` is a func.func operation; it must outlive the value.
  static RuntimeValue function(mlir::Operation *function);

  Kind getKind() const { return kind; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isClosure() const { return kind == Kind::Closure; }
  bool isReference() const { return kind == Kind::Reference; }
  bool isFunction() const { return kind == Kind::Function; }

  /// The tensor, or null when the value is not a tensor.
  const HostTensor *getTensor() const { return tensorPayload.get(); }
  /// The fields, or null when the value is not a tuple.
  const std::vector<RuntimeValue> *getTupleElements() const {
    return tuplePayload.get();
  }

  /// Accessors of the other kinds; each requires the matching kind.
  mlir::Operation *getClosureFn() const;
  llvm::ArrayRef<std::pair<mlir::Value, RuntimeValue>>
  getClosureCaptures() const;
  RuntimeValue readReference() const;
  void writeReference(RuntimeValue value) const;
  mlir::Operation *getFunction() const;

  /// Whether two reference values denote the same cell.
  bool isSameReference(const RuntimeValue &other) const;

  /// A handle on a reference cell that does not keep the cell alive.
  class WeakReference;
  /// Requires a reference.
  WeakReference getWeakReference() const;

  /// What a walk over values needs to visit shared parts once: the
  /// tuple, closure or cell this value denotes (null for the others).
  const void *getIdentity() const;

  /// Empties every cell of `cells` that is alive and not reachable from
  /// `roots` (through tuple fields, closure captures and cell contents).
  /// Cells can hold values that lead back to them (a closure stored in a
  /// cell it captures), which reference counting never frees; emptying the
  /// cells no one can reach any more breaks those cycles.
  static void releaseUnreachable(llvm::ArrayRef<WeakReference> cells,
                                 llvm::ArrayRef<RuntimeValue> roots);

  /// A short description for diagnostics: "tensor<2x3xf32>",
  /// "tuple<tensor<f32>, reference>", "closure", ...
  std::string describe() const;

  /// Tensor leaves in depth-first order (tuples flattened); closures,
  /// references and functions are not tensors and make this return false.
  bool flattenTensors(llvm::SmallVectorImpl<HostTensor> &tensors) const;

private:
  struct Closure;
  struct Cell;

  Kind kind = Kind::Tuple;
  std::shared_ptr<const HostTensor> tensorPayload;
  std::shared_ptr<const std::vector<RuntimeValue>> tuplePayload;
  std::shared_ptr<const Closure> closurePayload;
  std::shared_ptr<Cell> cellPayload;
  mlir::Operation *functionOp = nullptr;
};

class RuntimeValue::WeakReference {
public:
  /// The cell as a reference value; the unit value once it is freed.
  RuntimeValue lock() const;
  bool expired() const { return cell.expired(); }

private:
  friend class RuntimeValue;
  std::weak_ptr<Cell> cell;
};

/// The captured environment of a closure, as passed to
/// RuntimeValue::closure.
using CapturedValues = llvm::SmallVector<std::pair<mlir::Value, RuntimeValue>>;

/// Whether `value` may flow where IR type `type` is expected: a tensor with
/// the same element type and a shape that agrees on every static size; a
/// tuple whose elements conform field by field; a closure or function whose
/// signature equals the function type; any reference for a reference type
/// (its contents are checked when written). On mismatch, `reason` says why.
bool conformsTo(const RuntimeValue &value, mlir::Type type,
                std::string &reason);

} // namespace raf::runtime

#endif // RAF_RUNTIME_RUNTIMEVALUE_H

//===- TCGDialect.td - tcg dialect definition --------------*- tablegen -*-===//
//
// The tcg dialect: Tensor Compute Graphs (Rieber 2022, §3.1, Def. 3.1,
// Fig. 3.2), an operator as a tensor expression.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_TCGDIALECT_TD
#define RAF_DIALECT_TCG_IR_TCGDIALECT_TD

include "mlir/IR/OpBase.td"

def TCG_Dialect : Dialect {
  let name = "tcg";
  let cppNamespace = "::raf::tcg";
  let summary = "Tensor Compute Graphs: operators as tensor expressions";
  let description = [{
    A Tensor Compute Graph (TCG, Rieber 2022, Def. 3.1) describes one
    operator, or one hardware intrinsic, as a tensor expression: the output
    dimensions it forms, the reductions, the scalar computation and the
    input reads with their access functions. Both embedding methods (the
    top-down pattern matcher and the dataflow embedding) read it.

    The tree of Fig. 3.2 is written with regions: a node's *right child* is
    the body of its region, and an iterator is a region's block argument, so
    SSA dominance gives the rule that an access may only use iterators of
    enclosing (dominating) `tcg.tensor` and `tcg.reduce` nodes.

    ```mlir
    // c[x, y] = sum_z a[x, z] * b[y, z]   (VTA's GEMM core)
    %c = tcg.kernel "vta.gemm.1x16x16" (%a = %lhs : tensor<1x16xi8>,
                                        %b = %rhs : tensor<16x16xi8>)
        -> tensor<1x16xi32> attributes {arg_names = ["a", "b"]} {
      %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
        %1 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
          %2 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
            %3 = tcg.input %a[%x, %z] : tensor<1x16xi8>
            %4 = tcg.input %b[%y, %z] : tensor<16x16xi8>
            %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
            tcg.yield %5 : i32
          }
          tcg.yield %2 : i32
        }
        tcg.yield %1 : tensor<16xi32>
      }
      tcg.yield %0 : tensor<1x16xi32>
    }
    ```

    Construction rules (Fig. 3.2), checked by the verifiers:

    * only `tcg.tensor` contains `tcg.tensor`: a tensor body is either one
      nested `tcg.tensor` (an inner output dimension) or a scalar
      computation of `tcg.input`, `tcg.constant`, `tcg.compute` and
      `tcg.reduce`;
    * the tensor nest of a computation forms its result type: one dimension
      per `tcg.tensor`, of the size of its interval;
    * a `tcg.reduce` nests in a `tcg.tensor` or another `tcg.reduce` (one
      reduce per reduction dimension) and yields a scalar;
    * every access is a quasi-affine map (products and divisions by
      constants) from iterators to the indices of the operand, and stays
      within the operand's (possibly zero-padded and dilated) view over the
      whole iteration domain (interval analysis, Rieber 2022, §3.1.1);
    * a kernel contains tcg operations only: no branches, no loops, no
      other computation.

    A kernel's region is a sequence of computations: each top-level
    `tcg.tensor` is one loop nest (the left-child chain of Fig. 3.2), a later
    one may read an earlier one's result (a read-after-write dependency), and
    the kernel yields the result of one of them (normally the last).

    Two discardable attributes carry the results of the embedding passes
    and are verified wherever they appear: `tcg.embedding`
    (`#tcg.embedding`, on a kernel) and `tcg.tensorize` (`#tcg.tensorize`,
    on a packed kernel).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attributes the embedding passes attach to kernels.
    static constexpr ::llvm::StringLiteral kEmbeddingAttrName = "tcg.embedding";
    static constexpr ::llvm::StringLiteral kTensorizeAttrName = "tcg.tensorize";

    /// Registers the attributes (in TCGAttrs.cpp, beside their storage).
    void registerAttributes();
  }];
}

#endif // RAF_DIALECT_TCG_IR_TCGDIALECT_TD

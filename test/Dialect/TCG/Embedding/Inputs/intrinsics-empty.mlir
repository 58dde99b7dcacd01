// No tcg.kernel at all.
func.func @nothing() {
  return
}

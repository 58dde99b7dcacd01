//===- RelayOps.td - relay dialect operations --------------*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYOPS_TD
#define RAF_DIALECT_RELAY_IR_RELAYOPS_TD

include "raf/Dialect/Relay/IR/RelayStructuralOps.td"
include "raf/Dialect/Relay/IR/RelayOperators.td"
include "raf/Dialect/Relay/IR/RelayCollectiveOps.td"

#endif // RAF_DIALECT_RELAY_IR_RELAYOPS_TD

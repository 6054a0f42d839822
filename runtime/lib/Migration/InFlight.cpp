//===- InFlight.cpp - Requests to a running migratable launch -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The table of watched launches in flight (Migration/InFlight.h).
///
//===----------------------------------------------------------------------===//

#include "Migration/InFlight.h"
#include "Migration/Trigger.h"

using namespace hetgpu;
using namespace hetgpu::rt;

InFlightTable &InFlightTable::get() {
  static InFlightTable *T = new InFlightTable();
  return *T;
}

void InFlightTable::leave(DeviceContext &Ctx, Running &Me) {
  std::lock_guard<std::mutex> L(M);
  auto It = Launches.find(&Ctx);
  if (It != Launches.end() && It->second == &Me)
    Launches.erase(It);
  CV.notify_all();
}

bool InFlightTable::request(DeviceContext &Ctx, StreamObj *S, int MoveTo,
                            const std::string &Path, std::vector<char> *Buf,
                            Status &Result) {
  std::unique_lock<std::mutex> L(M);
  auto It = Launches.find(&Ctx);
  if (It == Launches.end() || (S && It->second->S != S))
    return false;
  Running *R = It->second;
  R->MoveTo = MoveTo;
  R->CheckpointTo = Path;
  R->CheckpointBuf = Buf;
  R->Served = false;
  R->Result = Status::ok();
  if (R->Flag)
    R->Flag->raise();
  CV.wait(L, [&] {
    auto I = Launches.find(&Ctx);
    return I == Launches.end() || I->second != R || R->Served;
  });
  auto I = Launches.find(&Ctx);
  if (I == Launches.end() || I->second != R)
    return false;
  Result = R->Result;
  R->MoveTo = -1;
  R->CheckpointTo.clear();
  R->CheckpointBuf = nullptr;
  return true;
}

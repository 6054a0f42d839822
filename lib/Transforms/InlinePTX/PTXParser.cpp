//===- PTXParser.cpp - Parse the PTX text of an inline asm statement ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A hand-written scanner for the statements of one inline asm string:
/// statements end at `;`, a `{` or `}` that starts a statement opens or
/// closes a register scope, `//` and `/* */` comments are skipped, and lines
/// are counted so that errors can point at the line of the asm statement
/// (clang gives one `!srcloc` cookie per line).
///
//===----------------------------------------------------------------------===//

#include "InlinePTX/PTXParser.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace llvm;

namespace hetgpu {
namespace ptx {

bool Instr::hasMod(StringRef M) const {
  for (const std::string &X : Mods)
    if (X == M)
      return true;
  return false;
}

std::string Instr::fullName() const {
  std::string S = Opcode;
  for (const std::string &M : Mods)
    S += "." + M;
  return S;
}

namespace {

bool isIdentStart(char C) {
  return isAlpha(C) || C == '_' || C == '%' || C == '$';
}
bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

class Parser {
public:
  Parser(StringRef S, std::vector<Stmt> &Out, ParseError &Err)
      : S(S), Out(Out), Err(Err) {}

  bool run() {
    while (true) {
      skipSpace();
      if (Pos >= S.size())
        return true;
      char C = S[Pos];
      if (C == ';') {
        ++Pos;
        continue;
      }
      if (C == '{' || C == '}') {
        Stmt St;
        St.Kind = C == '{' ? Stmt::BeginScope : Stmt::EndScope;
        St.Line = Line;
        Out.push_back(St);
        ++Pos;
        continue;
      }
      unsigned StartLine = Line;
      size_t Begin = Pos;
      int Depth = 0;
      while (Pos < S.size()) {
        char D = S[Pos];
        if (D == '\n')
          ++Line;
        if (D == '[' || D == '{' || D == '(')
          ++Depth;
        else if (D == ']' || D == ')')
          --Depth;
        else if (D == '}') {
          if (Depth == 0)
            break; // closes the scope: the statement lacked its ';'
          --Depth;
        } else if (D == ';' && Depth <= 0)
          break;
        else if (D == '/' && Pos + 1 < S.size() &&
                 (S[Pos + 1] == '/' || S[Pos + 1] == '*'))
          break;
        ++Pos;
      }
      StringRef Text = S.slice(Begin, Pos).trim();
      if (!Text.empty() && !statement(Text, StartLine))
        return false;
    }
  }

private:
  StringRef S;
  std::vector<Stmt> &Out;
  ParseError &Err;
  size_t Pos = 0;
  unsigned Line = 0;

  bool fail(const Twine &Msg, unsigned L) {
    Err.Msg = Msg.str();
    Err.Line = L;
    return false;
  }

  void skipSpace() {
    while (Pos < S.size()) {
      char C = S[Pos];
      if (C == '\n') {
        ++Line;
        ++Pos;
      } else if (isSpace(C)) {
        ++Pos;
      } else if (C == '/' && Pos + 1 < S.size() && S[Pos + 1] == '/') {
        while (Pos < S.size() && S[Pos] != '\n')
          ++Pos;
      } else if (C == '/' && Pos + 1 < S.size() && S[Pos + 1] == '*') {
        Pos += 2;
        while (Pos + 1 < S.size() && !(S[Pos] == '*' && S[Pos + 1] == '/')) {
          if (S[Pos] == '\n')
            ++Line;
          ++Pos;
        }
        Pos = std::min(S.size(), Pos + 2);
      } else {
        return;
      }
    }
  }

  /// Splits \p T at top-level occurrences of \p Sep.
  static SmallVector<StringRef, 6> splitTop(StringRef T, char Sep) {
    SmallVector<StringRef, 6> Parts;
    int Depth = 0;
    size_t Start = 0;
    for (size_t I = 0; I < T.size(); ++I) {
      char C = T[I];
      if (C == '[' || C == '{' || C == '(')
        ++Depth;
      else if (C == ']' || C == '}' || C == ')')
        --Depth;
      else if (C == Sep && Depth == 0) {
        Parts.push_back(T.slice(Start, I).trim());
        Start = I + 1;
      }
    }
    Parts.push_back(T.substr(Start).trim());
    return Parts;
  }

  bool statement(StringRef T, unsigned L) {
    // Labels: `name:` (but not `::` inside modifiers).
    {
      size_t I = 0;
      while (I < T.size() && (isIdentChar(T[I]) || (I == 0 && isIdentStart(T[I]))))
        ++I;
      StringRef Rest = T.substr(I).ltrim();
      if (I > 0 && Rest.starts_with(":") && !Rest.starts_with("::"))
        return fail("labels and branches are not supported (label '" +
                        T.substr(0, I) + "')",
                    L);
    }
    if (T.starts_with("."))
      return declaration(T, L);
    Stmt St;
    St.Kind = Stmt::Instruction;
    St.Line = L;
    Instr &I = St.I;
    I.Line = L;
    I.Text = T.str();
    if (T.consume_front("@")) {
      size_t E = T.find_first_of(" \t\n");
      if (E == StringRef::npos)
        return fail("guard without an instruction in '" + I.Text + "'", L);
      if (!operand(T.substr(0, E), I.Guard, L))
        return false;
      I.Guarded = true;
      T = T.substr(E).ltrim();
    }
    size_t E = 0;
    while (E < T.size() && (isAlnum(T[E]) || T[E] == '_' || T[E] == '.' ||
                            T[E] == ':'))
      ++E;
    StringRef Name = T.substr(0, E);
    if (Name.empty())
      return fail("cannot parse '" + I.Text + "'", L);
    SmallVector<StringRef, 8> Parts;
    Name.split(Parts, '.');
    I.Opcode = Parts[0].str();
    for (unsigned K = 1; K < Parts.size(); ++K)
      if (!Parts[K].empty())
        I.Mods.push_back(Parts[K].str());
    StringRef Ops = T.substr(E).trim();
    if (!Ops.empty())
      for (StringRef P : splitTop(Ops, ',')) {
        Operand O;
        if (!operand(P, O, L)) {
          I.OperandError = Err.Msg;
          Err = ParseError();
          break;
        }
        I.Ops.push_back(std::move(O));
      }
    Out.push_back(std::move(St));
    return true;
  }

  bool declaration(StringRef T, unsigned L) {
    if (!T.consume_front(".reg"))
      return fail("directive '" + T.split(' ').first +
                      "' is not supported in inline PTX (only .reg)",
                  L);
    T = T.ltrim();
    if (!T.consume_front("."))
      return fail("'.reg' without a type", L);
    size_t E = 0;
    while (E < T.size() && isAlnum(T[E]))
      ++E;
    Stmt St;
    St.Kind = Stmt::Decl;
    St.Line = L;
    St.D.Type = T.substr(0, E).str();
    if (St.D.Type == "v2" || St.D.Type == "v4")
      return fail("vector registers (.reg ." + St.D.Type + ") are not supported", L);
    for (StringRef N : splitTop(T.substr(E), ',')) {
      if (N.empty())
        return fail("'.reg' without a name", L);
      size_t Lt = N.find('<');
      if (Lt == StringRef::npos) {
        St.D.Names.push_back(N.str());
        continue;
      }
      unsigned Count;
      if (N.slice(Lt + 1, N.find('>')).trim().getAsInteger(10, Count) ||
          Count > 1024)
        return fail("bad register range '" + N + "'", L);
      for (unsigned K = 0; K < Count; ++K)
        St.D.Names.push_back((N.substr(0, Lt).trim() + Twine(K)).str());
    }
    Out.push_back(std::move(St));
    return true;
  }

  bool number(StringRef T, Operand &O, unsigned L) {
    bool Neg = T.consume_front("-");
    T.consume_front("+");
    StringRef Orig = T;
    if (T.size() > 2 && T[0] == '0' && (T[1] == 'f' || T[1] == 'F' ||
                                        T[1] == 'd' || T[1] == 'D')) {
      O.Kind = Operand::FImm;
      O.FBitsWidth = (T[1] == 'f' || T[1] == 'F') ? 32 : 64;
      if (T.substr(2).getAsInteger(16, O.FBits))
        return fail("bad floating-point literal '" + Orig + "'", L);
      if (Neg)
        O.FBits ^= O.FBitsWidth == 32 ? 0x80000000ull : 0x8000000000000000ull;
      return true;
    }
    if (T.find_first_of(".eE") != StringRef::npos && !T.starts_with_insensitive("0x")) {
      O.Kind = Operand::FImm;
      std::string Str = T.str();
      char *End = nullptr;
      O.FP = std::strtod(Str.c_str(), &End);
      if (!End || *End)
        return fail("bad floating-point literal '" + Orig + "'", L);
      if (Neg)
        O.FP = -O.FP;
      return true;
    }
    T.consume_back("U");
    T.consume_back("u");
    uint64_t V;
    bool Bad;
    if (T.starts_with_insensitive("0x"))
      Bad = T.substr(2).getAsInteger(16, V);
    else if (T.starts_with_insensitive("0b"))
      Bad = T.substr(2).getAsInteger(2, V);
    else if (T.size() > 1 && T[0] == '0')
      Bad = T.substr(1).getAsInteger(8, V);
    else
      Bad = T.getAsInteger(10, V);
    if (Bad)
      return fail("bad integer literal '" + Orig + "'", L);
    O.Kind = Operand::Imm;
    O.Int = Neg ? -int64_t(V) : int64_t(V);
    return true;
  }

  bool operand(StringRef T, Operand &O, unsigned L) {
    T = T.trim();
    if (T.empty())
      return fail("empty operand", L);
    SmallVector<StringRef, 2> Bar = splitTop(T, '|');
    if (Bar.size() == 2) {
      O.Kind = Operand::Pair;
      O.Elems.resize(2);
      return operand(Bar[0], O.Elems[0], L) && operand(Bar[1], O.Elems[1], L);
    }
    if (T == "_") {
      O.Kind = Operand::Sink;
      return true;
    }
    if (T.consume_front("!")) {
      if (!operand(T, O, L))
        return false;
      O.Negated = !O.Negated;
      return true;
    }
    if (T.starts_with("[")) {
      if (!T.consume_back("]"))
        return fail("unterminated address '" + T + "'", L);
      T = T.drop_front().trim();
      O.Kind = Operand::Address;
      // base[+-offset]; the base may be missing (an absolute address).
      size_t Split = T.find_first_of("+-", 1);
      StringRef Base = T, Off;
      if (Split != StringRef::npos) {
        Base = T.substr(0, Split).trim();
        Off = T.substr(Split).trim();
      }
      Operand B;
      if (!operand(Base, B, L))
        return false;
      if (B.Kind == Operand::Imm && Off.empty()) {
        O.Int = B.Int;
        return true;
      }
      O.Elems.push_back(B);
      if (!Off.empty()) {
        bool Minus = Off.consume_front("-");
        Off.consume_front("+");
        Off = Off.trim();
        bool MinusToo = Off.consume_front("-");
        Operand OffOp;
        if (!number(Off, OffOp, L) || OffOp.Kind != Operand::Imm)
          return fail("address offset must be an integer in '[" + T + "]'", L);
        O.Int = (Minus != MinusToo) ? -OffOp.Int : OffOp.Int;
      }
      return true;
    }
    if (T.starts_with("{")) {
      if (!T.consume_back("}"))
        return fail("unterminated vector operand '" + T + "'", L);
      O.Kind = Operand::Vector;
      for (StringRef P : splitTop(T.drop_front(), ',')) {
        Operand E;
        if (!operand(P, E, L))
          return false;
        O.Elems.push_back(E);
      }
      return true;
    }
    if (T.starts_with("$")) {
      StringRef N = T.drop_front();
      if (N.consume_front("{")) {
        if (!N.consume_back("}") || N.contains(':'))
          return fail("operand modifier '" + T + "' is not supported", L);
      }
      if (N.getAsInteger(10, O.ArgNo))
        return fail("bad operand reference '" + T + "'", L);
      O.Kind = Operand::Arg;
      return true;
    }
    if (isDigit(T[0]) || T[0] == '-' || T[0] == '+')
      return number(T, O, L);
    if (T == "WARP_SZ") {
      O.Kind = Operand::Imm;
      O.Int = 32;
      return true;
    }
    if (isIdentStart(T[0])) {
      for (char C : T.drop_front())
        if (!isIdentChar(C) && C != '.')
          return fail("cannot parse operand '" + T + "'", L);
      O.Kind = Operand::Reg;
      O.Name = T.str();
      return true;
    }
    return fail("cannot parse operand '" + T + "'", L);
  }
};

} // namespace

bool parse(StringRef Asm, std::vector<Stmt> &Out, ParseError &Err) {
  return Parser(Asm, Out, Err).run();
}

} // namespace ptx
} // namespace hetgpu

#!/usr/bin/env bash
# utils/check-sizes.sh - report C/C++ sources past the style guide's size limits.
#
# Prints every C/C++ source file under lib/ and runtime/lib/ (or the paths
# given) longer than 900 lines, and every function body longer than 150
# lines (signature line to closing brace). A report, not a gate: the exit
# status is 0 whatever it finds. A long function whose comment says why it
# stays long is still listed; read the comment.
#
# USAGE: utils/check-sizes.sh [--file-limit N] [--function-limit N] [PATH...]
#
# Functions are found with a brace-matching heuristic (comments, strings and
# preprocessor lines blanked, then every top-level `{` whose header looks
# like `name(...)` opens a function; namespace, class and extern "C" bodies
# are searched inside). Lambdas count towards the function around them.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file_limit=900
fn_limit=150
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
  --file-limit) file_limit="$2"; shift 2 ;;
  --function-limit) fn_limit="$2"; shift 2 ;;
  -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
  *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -eq 0 ] && paths=(lib runtime/lib)
cd "$root" || exit 0
python3 - "$file_limit" "$fn_limit" "${paths[@]}" <<'PY'
import os, re, sys

file_limit, fn_limit = int(sys.argv[1]), int(sys.argv[2])
EXTS = ('.c', '.cc', '.cpp', '.cxx', '.h', '.hh', '.hpp', '.hxx', '.inc')

def sources(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for d, subdirs, files in os.walk(p):
            subdirs.sort()
            for f in sorted(files):
                if f.endswith(EXTS):
                    yield os.path.join(d, f)

def blank(text):
    """Comments, string and character literals and preprocessor lines
    replaced by spaces (newlines kept, so offsets keep their line)."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in ' \t':
            out.append(c); i += 1; continue
        if line_start and c == '#':
            # A directive, with its continuation lines.
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append(' \n'); i += 2; continue
                out.append(' '); i += 1
            continue
        line_start = False
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                out.append(' '); i += 1
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
            continue
        m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:i + 20])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = text.find(')' + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r'[^\n]', ' ', text[i + 2:j])); i = j
            continue
        if c in '"\'':
            # A digit separator (1'000) is no character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
               i + 1 < n and text[i + 1].isalnum() and \
               re.match(r'[0-9a-fA-FxXbB\']*$', text[max(0, i - 1)]):
                out.append(' '); i += 1; continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
            continue
        if c == '\n':
            line_start = True
        out.append(c); i += 1
    return ''.join(out)

KW_SCOPE = re.compile(r'^(?:template\s*<.*>\s*)?(?:typedef\s+)?'
                      r'(?:class|struct|union|enum)\b', re.S)
NOT_FN = {'if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof',
          'alignof', 'decltype', 'do', 'else', 'try'}

def depth0_has(header, ch):
    d = 0
    for c in header:
        if c in '(<[':
            d += 1
        elif c in ')>]':
            d = max(0, d - 1)
        elif c == ch and d == 0:
            return True
    return False

def function_name(header):
    """The name before the first top-level '(' of a function header, or
    None when the header is not one."""
    h = ' '.join(header.split())
    if not h or '(' not in h:
        return None
    if re.match(r'^(?:namespace|extern\s*""|using)\b', h) or KW_SCOPE.match(h):
        return None
    if depth0_has(h, '='):          # `T x[] = {` and the like
        # (`operator=` is a function; a default argument sits inside parens)
        if not re.search(r'operator\s*[=!<>+\-*/%^&|]*=\s*\(', h):
            return None
    m = re.match(r'^(.*?)(operator\s*(?:\(\)|[^\s(]+)|[~\w:<>,\s*&]+?)\s*\(', h)
    if not m:
        return None
    name = m.group(2).split()[-1].lstrip('*&') if m.group(2).split() else ''
    if m.group(2).strip().startswith('operator'):
        name = re.sub(r'\s+', '', m.group(2))
        pre = m.group(1).split()
        if pre and pre[-1].endswith('::'):
            name = pre[-1] + name
    if not name or name.split('::')[-1] in NOT_FN:
        return None
    return name

def functions(text):
    """(name, first line, last line) of every function definition."""
    src = blank(text)
    line_of = [0] * (len(src) + 1)
    ln = 1
    for i, c in enumerate(src):
        line_of[i] = ln
        if c == '\n':
            ln += 1
    line_of[len(src)] = ln
    stack = []      # entries: ('scope'|'fn'|'other', name, start offset)
    header_start = 0
    in_fn = 0
    found = []
    for i, c in enumerate(src):
        if c == '{':
            header = src[header_start:i]
            kind, name = 'other', None
            if not in_fn:
                h = ' '.join(header.split())
                if re.match(r'^(?:inline\s+)?namespace\b', h) or \
                   re.match(r'^extern\s*""$', h) or KW_SCOPE.match(h):
                    kind = 'scope'
                else:
                    name = function_name(header)
                    if name:
                        kind = 'fn'
            # The header's first non-blank character starts the function.
            s = header_start
            while s < i and src[s].isspace():
                s += 1
            stack.append((kind, name, s))
            if kind == 'fn':
                in_fn += 1
            header_start = i + 1
        elif c == '}':
            if stack:
                kind, name, s = stack.pop()
                if kind == 'fn':
                    in_fn -= 1
                    found.append((name, line_of[s], line_of[i]))
            header_start = i + 1
        elif c == ';':
            header_start = i + 1
        elif c == ':' and not in_fn:
            # `public:` / `private:` inside a class body end a header.
            h = src[header_start:i].strip()
            if h in ('public', 'private', 'protected'):
                header_start = i + 1
    return found

big_files, long_fns = [], []
for path in sources(sys.argv[3:]):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        continue
    n = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
    if n > file_limit:
        big_files.append((n, path))
    for name, first, last in functions(text):
        length = last - first + 1
        if length > fn_limit:
            long_fns.append((length, path, first, name))

print(f'Files over {file_limit} lines: {len(big_files)}')
for n, path in sorted(big_files, reverse=True):
    print(f'  {n:6d}  {path}')
print(f'Functions over {fn_limit} lines: {len(long_fns)}')
for n, path, first, name in sorted(long_fns, key=lambda t: (-t[0], t[1])):
    print(f'  {n:6d}  {path}:{first}  {name}')
PY
exit 0

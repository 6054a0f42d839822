//===- Options.td - hetgpu-cc's command line, in nvcc's spellings ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
//
// Every nvcc option has a long name (`--gpu-architecture`) and a short one
// (`-arch`); nvcc takes either with one or two dashes, and a value either
// after `=` or as the next argument. The multiclasses below spell all of
// these forms as aliases of one option, so the driver sees one ID.
// Options nvcc documents that hetgpu-cc cannot honour have a help text that
// starts with "not supported: ", followed by the reason printed when they
// are used.
//
//===----------------------------------------------------------------------===//

include "llvm/Option/OptParser.td"

def grp_files : OptionGroup<"files">, HelpText<"FILES AND PATHS">;
def grp_phase : OptionGroup<"phase">, HelpText<"COMPILATION PHASE">;
def grp_code : OptionGroup<"code">, HelpText<"CODE GENERATION">;
def grp_pass : OptionGroup<"pass">, HelpText<"OPTIONS FOR THE TOOLS BELOW">;
def grp_driver : OptionGroup<"driver">, HelpText<"DRIVER">;
def grp_noeffect : OptionGroup<"noeffect">,
  HelpText<"ACCEPTED, NO EFFECT ON A PORTABLE BINARY">;

// A flag spelled --long / -short.
// The help text names the short spelling first: "[-short] help".
class ShortHelp<string long, string short, string help> {
  string Text = !if(!ne(short, long), "[-" # short # "] ", "") # help;
}

multiclass F<string long, string short, string help> {
  def NAME : Flag<["--", "-"], long>,
    HelpText<ShortHelp<long, short, help>.Text>;
  if !ne(short, long) then
    def NAME # _s : Flag<["-", "--"], short>, Alias<!cast<Flag>(NAME)>;
}

// An option with a value: --long V, --long=V, -short V, -short=V.
multiclass V<string long, string short, string meta, string help> {
  def NAME : Separate<["--", "-"], long>, MetaVarName<meta>,
    HelpText<ShortHelp<long, short, help>.Text>;
  def NAME # _eq : Joined<["--", "-"], long # "=">,
    Alias<!cast<Separate>(NAME)>;
  if !ne(short, long) then {
    def NAME # _s : Separate<["-", "--"], short>, Alias<!cast<Separate>(NAME)>;
    def NAME # _s_eq : Joined<["-", "--"], short # "=">,
      Alias<!cast<Separate>(NAME)>;
  }
}

// As V, and the short form also takes the value attached (-Ipath, -O3).
multiclass VJ<string long, string short, string meta, string help> {
  def NAME : Separate<["--", "-"], long>, MetaVarName<meta>,
    HelpText<ShortHelp<long, short, help>.Text>;
  def NAME # _eq : Joined<["--", "-"], long # "=">,
    Alias<!cast<Separate>(NAME)>;
  def NAME # _s : JoinedOrSeparate<["-"], short>, Alias<!cast<Separate>(NAME)>;
  def NAME # _s_eq : Joined<["-"], short # "=">, Alias<!cast<Separate>(NAME)>;
}

//===----------------------------------------------------------------------===//
// Files and paths
//===----------------------------------------------------------------------===//
let Group = grp_files in {
defm output_file : VJ<"output-file", "o", "<file>", "Write the output to <file>">;
defm pre_include : V<"pre-include", "include", "<file>",
  "Include <file> before the source">;
defm library : VJ<"library", "l", "<lib>",
  "Link lib<lib>; -lcudart and -lcuda name hetGPU's runtime">;
defm define_macro : VJ<"define-macro", "D", "<def>", "Define a macro">;
defm undefine_macro : VJ<"undefine-macro", "U", "<name>", "Undefine a macro">;
defm include_path : VJ<"include-path", "I", "<dir>", "Add an include folder">;
defm system_include : V<"system-include", "isystem", "<dir>",
  "Add a system include folder">;
def iquote : JoinedOrSeparate<["-"], "iquote">, MetaVarName<"<dir>">,
  HelpText<"Add a quoted-include folder (host compiler's meaning)">;
defm library_path : VJ<"library-path", "L", "<dir>", "Add a library folder">;
defm output_directory : V<"output-directory", "odir", "<dir>",
  "Folder of the dependency file's target (with -M*)">;
defm dependency_output : VJ<"dependency-output", "MF", "<file>",
  "Dependency file of -M/-MM/-MD/-MMD">;
defm dependency_target_name : VJ<"dependency-target-name", "MT", "<target>",
  "Target name in the dependency file">;
defm generate_dependency_targets : F<"generate-dependency-targets", "MP",
  "Add a phony target for each dependency">;
defm compiler_bindir : V<"compiler-bindir", "ccbin", "<path>",
  "Host compiler (or its folder) for .c/.cpp inputs and the link; "
  "-Xcompiler -fopenmp then uses its OpenMP runtime for .cu files too">;
defm allow_unsupported_compiler : F<"allow-unsupported-compiler",
  "allow-unsupported-compiler", "Accepted: any host compiler is allowed">;
defm cudart : V<"cudart", "cudart", "{none|shared|static}",
  "CUDA runtime to link: hetGPU's libhetgpu-rt (shared either way), or none">;
defm cudadevrt : V<"cudadevrt", "cudadevrt", "{none|static}",
  "Accepted: device runtime calls are part of hetIR">;
defm keep_dir : V<"keep-dir", "keep-dir", "<dir>",
  "Keep intermediate files in <dir>">;
}

//===----------------------------------------------------------------------===//
// Compilation phase
//===----------------------------------------------------------------------===//
let Group = grp_phase in {
defm compile : F<"compile", "c", "Compile each input to an object">;
defm preprocess : F<"preprocess", "E", "Preprocess (device side) to stdout or -o">;
defm generate_dependencies : F<"generate-dependencies", "M",
  "Write the dependencies of the input (stdout or -o/-MF), compile nothing">;
defm generate_nonsystem_dependencies : F<"generate-nonsystem-dependencies",
  "MM", "As -M, system headers left out">;
defm generate_dependencies_with_compile : F<
  "generate-dependencies-with-compile", "MD",
  "Write a dependency file while compiling (-MF, else <output>.d)">;
defm generate_nonsystem_dependencies_with_compile : F<
  "generate-nonsystem-dependencies-with-compile", "MMD",
  "As -MD, system headers left out">;
defm ptx : F<"ptx", "ptx", "Write portable PTX (NVPTX target, sm_80) of each .cu "
  "file's device code (-o or <input>.ptx)">;
defm device_c : F<"device-c", "dc", "Compile to objects with relocatable device "
  "code (docs/SeparateCompilation.md)">;
defm device_link : F<"device-link", "dlink",
  "Device-link -dc objects and archives into one object (-o, else a_dlink.o)">;
defm relocatable_device_code : V<"relocatable-device-code", "rdc",
  "{true|false}", "Relocatable device code (with -c: as -dc)">;
def no_device_link_contracts : Flag<["--", "-"], "no-device-link-contracts">,
  HelpText<"Device link by symbols only: contracts are not checked">;
defm link : F<"link", "link", "Compile and link (the default)">;
defm shared : F<"shared", "shared", "Link a shared library">;
defm lib : F<"lib", "lib", "not supported: make a static library with ar">;
defm cuda : F<"cuda", "cuda", "not supported: there is no .cu.cpp.ii stage">;
defm cubin : F<"cubin", "cubin", "not supported: device code is hetIR, "
  "translated for the device when the program runs">;
defm fatbin : F<"fatbin", "fatbin", "not supported: the container is embedded "
  "in the object (keep it with -keep)">;
defm optix_ir : F<"optix-ir", "optix-ir", "not supported: no OptiX">;
defm ltoir : F<"lto-ir", "ltoir", "not supported: no LTO IR output">;
defm device_w : F<"device-w", "dw", "not supported: use -dc">;
defm run : F<"run", "run", "not supported: run the program yourself">;
}

//===----------------------------------------------------------------------===//
// Code generation
//===----------------------------------------------------------------------===//
let Group = grp_code in {
defm optimize : VJ<"optimize", "O", "<level>", "Host optimisation level">;
defm dopt : V<"dopt", "dopt", "{on|off}", "Device optimisation (off: -O0)">;
defm debug : F<"debug", "g", "Host debug information">;
defm device_debug : F<"device-debug", "G",
  "Device debug information, device code at -O0">;
defm generate_line_info : F<"generate-line-info", "lineinfo",
  "Line tables for device code (kept in the hetIR)">;
defm std : V<"std", "std", "{c++03|c++11|c++14|c++17|c++20}",
  "C++ dialect (default c++17)">;
defm x : V<"x", "x", "{cu|c++|c|none}", "Language of the following inputs">;
defm gpu_architecture : V<"gpu-architecture", "arch", "<arch>",
  "Requested GPU architecture (compute_NN, sm_NN, native, all, all-major); "
  "sm_NN embeds an ahead-of-time image for it beside the portable hetIR">;
defm gpu_code : V<"gpu-code", "code", "<code>,...",
  "Requested GPU code (sm_NN, compute_NN); sm_NN embeds an image for it">;
defm generate_code : V<"generate-code", "gencode", "arch=<a>,code=<c>",
  "Requested architecture/code pair; an sm_NN code embeds an image for it">;
defm offload_arch : V<"offload-arch", "offload-arch", "<target>,...",
  "Embed an ahead-of-time image of the device code for each target "
  "(host, sm_NN, gfxNNN, spirv[1.N][+feature...]) beside the portable hetIR">;
defm no_offload_images : F<"no-offload-images", "no-offload-images",
  "Embed no ahead-of-time images (not even for the sm_NN codes of -arch)">;
defm use_fast_math : F<"use_fast_math", "use_fast_math",
  "--ftz=true --prec-div=false --prec-sqrt=false --fmad=true, fast intrinsics">;
defm ftz : V<"ftz", "ftz", "{true|false}", "Flush denormal floats to zero">;
defm prec_div : V<"prec-div", "prec-div", "{true|false}",
  "false: approximate division (reciprocal math)">;
defm prec_sqrt : V<"prec-sqrt", "prec-sqrt", "{true|false}",
  "false: approximate square root">;
defm fmad : V<"fmad", "fmad", "{true|false}", "Contract multiply-add to fma">;
defm maxrregcount : V<"maxrregcount", "maxrregcount", "<N>",
  "Register limit: validated; each device's translator allocates registers">;
defm default_stream : V<"default-stream", "default-stream",
  "{legacy|null|per-thread}", "Default stream of the program">;
defm machine : V<"machine", "m", "64", "64-bit only">;
defm m64 : F<"m64", "m64", "64-bit host code (the only choice)">;
defm no_exceptions : F<"no-exceptions", "noeh", "Host code without exceptions">;
defm ftemplate_depth : V<"ftemplate-depth", "ftemplate-depth", "<N>",
  "Template instantiation depth">;
defm ftemplate_backtrace_limit : V<"ftemplate-backtrace-limit",
  "ftemplate-backtrace-limit", "<N>", "Template backtrace limit">;
defm resource_usage : F<"resource-usage", "res-usage",
  "Print each kernel's resources (parameters, shared memory, state record)">;
}

//===----------------------------------------------------------------------===//
// Options for the tools below
//===----------------------------------------------------------------------===//
let Group = grp_pass in {
defm compiler_options : V<"compiler-options", "Xcompiler", "<a,b,...>",
  "Options for the host compiler">;
defm linker_options : V<"linker-options", "Xlinker", "<a,b,...>",
  "Options for the host linker">;
defm ptxas_options : V<"ptxas-options", "Xptxas", "<a,b,...>",
  "-v (--verbose) prints the resource report of --resource-usage; "
  "others are accepted without effect">;
defm nvlink_options : V<"nvlink-options", "Xnvlink", "<a,b,...>",
  "Accepted without effect">;
defm archive_options : V<"archive-options", "Xarchive", "<a,b,...>",
  "not supported: there is no --lib">;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//
let Group = grp_driver in {
defm help : F<"help", "h", "Print this help">;
defm version : F<"version", "V", "Print nvcc's version lines and hetGPU's">;
defm verbose : F<"verbose", "v", "Print each step (#$ ...)">;
defm dryrun : F<"dryrun", "dryrun", "Print each step without running it">;
defm keep : F<"keep", "keep", "Keep intermediate files (.hetir.bc, .hetgpu)">;
defm save_temps : F<"save-temps", "save-temps", "Same as --keep">;
defm forward_unknown_to_host_compiler : F<"forward-unknown-to-host-compiler",
  "forward-unknown-to-host-compiler",
  "Give unknown options to the host compiler instead of failing">;
defm forward_unknown_to_host_linker : F<"forward-unknown-to-host-linker",
  "forward-unknown-to-host-linker",
  "Give unknown options to the host linker instead of failing">;
defm forward_unknown_opts : F<"forward-unknown-opts", "forward-unknown-opts",
  "Same as --forward-unknown-to-host-compiler">;
defm disable_warnings : F<"disable-warnings", "w", "Suppress warnings">;
defm threads : V<"threads", "t", "<N>", "Accepted: one job at a time">;
defm time : V<"time", "time", "<file>",
  "not supported: use -v, or -ftime-trace for the host compiler">;
defm options_file : V<"options-file", "optf", "<file>",
  "not supported: use a response file (@file)">;
defm clean_targets : F<"clean-targets", "clean",
  "not supported: delete the outputs yourself">;
defm list_gpu_arch : F<"list-gpu-arch", "list-gpu-arch",
  "not supported: the binary is portable (see hetgpu-info)">;
defm list_gpu_code : F<"list-gpu-code", "list-gpu-code",
  "not supported: the binary is portable (see hetgpu-info)">;
defm profile : F<"profile", "pg", "not supported: no gprof instrumentation">;
defm lto : F<"dlink-time-opt", "dlto",
  "not supported: device link-time optimisation">;
def lto_short : Flag<["-", "--"], "lto">, Alias<lto>;
defm gen_opt_lto : F<"gen-opt-lto", "gen-opt-lto",
  "not supported: device link-time optimisation">;
defm host_relocatable_link : F<"host-relocatable-link", "r",
  "not supported: relocatable host link">;
defm split_compile : V<"split-compile", "split-compile", "<N>",
  "Accepted: one job at a time">;
defm entries : V<"entries", "e", "<kernels>",
  "not supported: every kernel is kept">;
}

//===----------------------------------------------------------------------===//
// Accepted without effect
//===----------------------------------------------------------------------===//
let Group = grp_noeffect in {
defm expt_relaxed_constexpr : F<"expt-relaxed-constexpr",
  "expt-relaxed-constexpr", "constexpr host functions are callable in device code">;
defm extended_lambda : F<"extended-lambda", "extended-lambda",
  "__device__ lambdas are always allowed">;
defm expt_extended_lambda : F<"expt-extended-lambda", "expt-extended-lambda",
  "Same as --extended-lambda">;
defm restrict : F<"restrict", "restrict", "Kernel pointers are restrict">;
defm wno_deprecated_gpu_targets : F<"Wno-deprecated-gpu-targets",
  "Wno-deprecated-gpu-targets", "No target is deprecated">;
defm wno_deprecated_declarations : F<"Wno-deprecated-declarations",
  "Wno-deprecated-declarations", "Passed to the host compiler">;
defm wreorder : F<"Wreorder", "Wreorder", "Passed to the host compiler">;
defm wext_lambda_captures_this : F<"Wext-lambda-captures-this",
  "Wext-lambda-captures-this", "Accepted">;
defm wdefault_stream_launch : F<"Wdefault-stream-launch",
  "Wdefault-stream-launch", "Accepted">;
defm wmissing_launch_bounds : F<"Wmissing-launch-bounds",
  "Wmissing-launch-bounds", "Accepted">;
defm display_error_number : F<"display-error-number", "err-no", "Accepted">;
defm no_display_error_number : F<"no-display-error-number", "no-err-no",
  "Accepted">;
defm diag_suppress : V<"diag-suppress", "diag-suppress", "<n,...>",
  "Accepted (nvcc's diagnostic numbers)">;
defm diag_warn : V<"diag-warn", "diag-warn", "<n,...>", "Accepted">;
defm diag_error : V<"diag-error", "diag-error", "<n,...>", "Accepted">;
defm keep_device_functions : F<"keep-device-functions",
  "keep-device-functions", "Accepted">;
defm extra_device_vectorization : F<"extra-device-vectorization",
  "extra-device-vectorization", "Accepted">;
defm source_in_ptx : F<"source-in-ptx", "src-in-ptx", "Accepted">;
defm no_compress : F<"no-compress", "no-compress", "Accepted">;
defm objdir_as_tempdir : F<"objdir-as-tempdir", "objtemp", "Accepted">;
defm keep_going : F<"keep-going", "k", "Accepted">;
defm extensible_whole_program : F<"extensible-whole-program", "ewp",
  "Accepted">;
defm no_host_device_initializer_list : F<"no-host-device-initializer-list",
  "nohdinitlist", "Accepted">;
defm no_align_double : F<"no-align-double", "no-align-double", "Accepted">;
defm dont_use_profile : F<"dont-use-profile", "noprof", "Accepted">;
defm use_local_env : F<"use-local-env", "use-local-env", "Accepted">;
// -Werror alone is the host compiler's; nvcc's takes kinds after `=`.
def werror : Joined<["--", "-"], "Werror=">, MetaVarName<"<kind,...>">,
  HelpText<"all-warnings: -Werror for the host compiler; nvcc's kinds "
  "accepted; others go to the host compiler as -Werror=<kind>">;
def werror_sep : Separate<["--"], "Werror">, Alias<werror>;
}

//===----------------------------------------------------------------------===//
// Host compiler options taken as they are (both compiles of a .cu file)
//===----------------------------------------------------------------------===//
def host_W : Joined<["-"], "W">, Flags<[HelpHidden]>;
def host_f : Joined<["-"], "f">, Flags<[HelpHidden]>;
def host_m : Joined<["-"], "m">, Flags<[HelpHidden]>;
def host_pthread : Flag<["-"], "pthread">, Flags<[HelpHidden]>;
def host_pedantic : Flag<["-"], "pedantic">, Flags<[HelpHidden]>;

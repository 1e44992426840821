// The strict type check, file by file: every file jsconfig.strict.json lists is checked with
// strict and noImplicitAny; the files they import are read for their types but their own
// errors are not reported until they are listed too. (`tsc -p` reports every file of the
// program, so one folder could not move to strict before all it imports.)
//   node scripts/tsc_strict.mjs [jsconfig.strict.json]     (bash scripts/js.sh check runs it)
import path from "node:path";
import ts from "typescript";

const configPath = path.resolve(process.argv[2] || "jsconfig.strict.json");
const read = ts.readConfigFile(configPath, ts.sys.readFile);
if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
const config = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath));
const listed = new Set(config.fileNames.map((f) => path.resolve(f)));
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = [
  ...config.errors,
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSourceFiles()
    .filter((f) => listed.has(path.resolve(f.fileName)))
    .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" };
process.stdout.write(ts.formatDiagnostics(diagnostics, host));
if (diagnostics.length) {
  process.stdout.write(`${diagnostics.length} strict type errors in the files jsconfig.strict.json lists\n`);
  process.exit(1);
}
process.stdout.write(`strict: ${listed.size} files clean\n`);

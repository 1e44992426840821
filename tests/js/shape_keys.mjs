// Prints, as JSON, every exported interface of kvwidgets/widgets/js/shapes.d.ts with its
// keys (inherited ones included), whether each is optional, and its type as written, read
// with the TypeScript compiler API so the test sees what tsc sees.
//   node tests/js/shape_keys.mjs [path/to/shapes.d.ts]
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const file = path.resolve(process.argv[2] || path.join(root, "kvwidgets/widgets/js/shapes.d.ts"));
const program = ts.createProgram([file], { strict: true, noEmit: true, types: [], lib: ["lib.es5.d.ts"] });
const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
if (problems.length) {
  process.stderr.write(`${file} does not compile:\n${problems.join("\n")}\n`);
  process.exit(1);
}
const checker = program.getTypeChecker();
const source = program.getSourceFile(file);
/** @type {Record<string, Record<string, {optional: boolean, type: string}>>} */
const interfaces = {};
for (const node of source.statements) {
  if (!ts.isInterfaceDeclaration(node)) continue;
  const type = checker.getTypeAtLocation(node.name);
  const keys = {};
  for (const prop of checker.getPropertiesOfType(type)) {
    const decl = prop.valueDeclaration;
    keys[prop.name] = {
      optional: (prop.flags & ts.SymbolFlags.Optional) !== 0,
      type: decl && decl.type ? decl.type.getText() : checker.typeToString(checker.getTypeOfSymbol(prop)),
    };
  }
  interfaces[node.name.text] = keys;
}
process.stdout.write(JSON.stringify(interfaces, null, 1));

import { describe, expect, it } from "vitest";
import { instrumented, promisedOutputs, sameOutput, snippetsOf } from "./snippets.js";

const page = [
  "# A page",
  "",
  "```ts",
  'const names = ["a", "b"];',
  "console.log(names); // [ 'a', 'b' ]",
  "console.log(names.length); // note: not output",
  "if (names.length > 1) console.log(names[0]);",
  "// a",
  "console.log(",
  "  names.at(-1),",
  "); // b",
  "// prose after a statement that is not a console.log",
  "```",
  "",
  "```ts no-run",
  "console.log(await fetch('https://example.com')); // Response",
  "```",
  "",
  "```ts ai@7",
  'import { generateText } from "ai";',
  "```",
  "",
  "```ts tickets.ts",
  "export default {};",
  "```",
].join("\n");

describe("the docs' snippets", () => {
  it("are the page's ts blocks, with the line their code starts on and whether they run", () => {
    const [first, second] = snippetsOf("docs/page.md", page);
    expect(first).toMatchObject({
      name: "docs_page_md_1",
      page: "docs/page.md",
      line: 4,
      runs: true,
    });
    expect(second).toMatchObject({ name: "docs_page_md_2", line: 16, runs: false });
    expect(second && "under" in second).toBe(false);
  });

  it("tell an AI SDK 7 block, which runs under AI SDK 7 on Node 22, by its fence", () => {
    const third = snippetsOf("docs/page.md", page)[2];
    expect(third).toMatchObject({ name: "docs_page_md_3", line: 20, runs: true, under: "ai@7" });
  });

  it("include a block that names the file a reader saves it as, which runs", () => {
    const [, , , named] = snippetsOf("docs/page.md", page);
    expect(named).toMatchObject({ line: 24, source: "export default {};\n", runs: true });
  });

  it("promise the trailing comment, or the comment lines below a console.log, but never a note", () => {
    const [snippet] = snippetsOf("docs/page.md", page);
    const promises = snippet === undefined ? [] : promisedOutputs(snippet);
    expect(promises.map(({ line, text }) => ({ line, text }))).toEqual([
      { line: 5, text: "[ 'a', 'b' ]" },
      { line: 8, text: "a" },
      { line: 11, text: "b" },
    ]);
  });

  it("run with each promising console.log recording what it prints, and nothing else changed", () => {
    const [snippet] = snippetsOf("docs/page.md", page);
    if (snippet === undefined) throw new Error("no snippet");
    const source = instrumented(snippet, promisedOutputs(snippet));
    expect(source).toContain("globalThis.__printed(0)(names); // [ 'a', 'b' ]");
    expect(source).toContain("console.log(names.length); // note: not output");
    expect(source).toContain(
      "console.log(names[0])".replace("console.log", "globalThis.__printed(1)"),
    );
    expect(source).toContain("globalThis.__printed(2)(\n  names.at(-1),\n); // b");
  });

  it("compare equal only when nothing but whitespace differs", () => {
    expect(sameOutput("{\n  a: 1,\n  b: [ 'x' ]\n}", "{ a: 1, b: [ 'x' ] }")).toBe(true);
    expect(sameOutput('{"a":1,"b":2}', '{"a":1,\n"b":2}')).toBe(true);
    expect(sameOutput("{ a: 1 }", "{ a: 1 }: a note")).toBe(false);
    expect(sameOutput("must be <= 30. Fix the input.", "must be <= 30. …")).toBe(false);
    expect(sameOutput("[ 'ab' ]", "[ 'a b' ]")).toBe(false);
    expect(sameOutput("a.b", "a?b")).toBe(false);
  });
});

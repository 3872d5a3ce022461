import { describe, expect, it } from "vitest";
import {
  anchorOf,
  anchorsOf,
  codeSpansOf,
  installedName,
  installsFromRegistry,
  installsOf,
  isRelative,
  linksOf,
  pathOfSpan,
  repositoryPath,
  resolveLink,
} from "./markdown.js";

const page = [
  "# A page",
  "",
  "Install it as [the README says](../README.md#install), then (`npm install ai @ai-sdk/openai@3`).",
  "Prose that says npm install ignite-element is not a command a reader copies.",
  "",
  "```sh",
  "npm i -D zod   # a comment: npm install nothing",
  "cd app && pnpm add pg; yarn add @types/pg",
  "npm install && npm test",
  "```",
  "",
  "```ts",
  'const link = "[not](a-link.md)"; // `examples/not-a-span`',
  "```",
  "",
  "[`examples/redux/`](https://github.com/ignite-element/tools/tree/main/examples/redux) and",
  '`src/tests/docs.test.ts`, `dist/`, `npm test`, ![a figure](figure.png "its title").',
  "",
  "[label]: ./other.md",
].join("\n");

describe("a page's Markdown", () => {
  it("installs what its code says, in fenced blocks and inline code, never in prose", () => {
    expect(installsOf(page)).toEqual([
      { line: 3, command: "npm install ai @ai-sdk/openai@3", packages: ["ai", "@ai-sdk/openai@3"] },
      { line: 7, command: "npm i -D zod", packages: ["zod"] },
      { line: 8, command: "pnpm add pg", packages: ["pg"] },
      { line: 8, command: "yarn add @types/pg", packages: ["@types/pg"] },
      { line: 9, command: "npm install", packages: [] },
    ]);
  });

  it("finds this package installed in a sentence's inline code, as docs/serving.md once did", () => {
    const sentence =
      "The command needs the SDK (`npm install ignite-element @modelcontextprotocol/sdk`).";
    const [install] = installsOf(sentence);
    expect(install?.packages).toEqual(["ignite-element", "@modelcontextprotocol/sdk"]);
    expect(install?.packages.some(installsFromRegistry)).toBe(true);
  });

  it("names a package installed with a version by its name, and this package from the registry only bare or with a version", () => {
    expect(["ai@6", "@ai-sdk/openai@3.0.1", "@types/pg"].map(installedName)).toEqual([
      "ai",
      "@ai-sdk/openai",
      "@types/pg",
    ]);
    const words = [
      "ignite-element",
      "ignite-element@0.1.0",
      "ignite-element@latest",
      "ignite-element@github:ignite-element/tools",
      "ignite-element@file:../tools",
      "ignite-elements",
      "github:ignite-element/tools",
    ];
    expect(words.filter(installsFromRegistry)).toEqual([
      "ignite-element",
      "ignite-element@0.1.0",
      "ignite-element@latest",
    ]);
  });

  it("links what its prose links, not what its code shows, with where each link's text stands", () => {
    const links = linksOf(page);
    expect(links.map(({ line, target }) => ({ line, target }))).toEqual([
      { line: 3, target: "../README.md#install" },
      { line: 16, target: "https://github.com/ignite-element/tools/tree/main/examples/redux" },
      { line: 17, target: "figure.png" },
      { line: 19, target: "./other.md" },
    ]);
    const [, redux] = links;
    expect(redux && page.slice(redux.text.start, redux.text.end)).toBe("`examples/redux/`");
  });

  it("reads the inline code of its prose, and which spans name a path", () => {
    const spans = codeSpansOf(page).map(({ line, code }) => ({ line, code }));
    expect(spans).toEqual([
      { line: 3, code: "npm install ai @ai-sdk/openai@3" },
      { line: 16, code: "examples/redux/" },
      { line: 17, code: "src/tests/docs.test.ts" },
      { line: 17, code: "dist/" },
      { line: 17, code: "npm test" },
    ]);
    expect(spans.map(({ code }) => pathOfSpan(code))).toEqual([
      undefined,
      "examples/redux",
      "src/tests/docs.test.ts",
      "dist",
      undefined,
    ]);
    expect(pathOfSpan("../../src/tools/…")).toBeUndefined();
  });

  it("resolves a relative link from its page to a path of the package, or none past the root", () => {
    expect(isRelative("../README.md#install")).toBe(true);
    expect(["#a-heading", "https://example.com", "mailto:a@b.c"].some(isRelative)).toBe(false);
    expect(resolveLink("docs/frameworks/ai-sdk.md", "../../README.md#install")).toBe("README.md");
    expect(resolveLink("docs/agent-loop.md", "dialects/")).toBe("docs/dialects/");
    expect(resolveLink("README.md", "docs/serving.md#in-the-browser-webmcp")).toBe(
      "docs/serving.md",
    );
    expect(resolveLink("docs/scaling.md", "../examples/approval-workers/README.md")).toBe(
      "examples/approval-workers/README.md",
    );
    expect(resolveLink("docs/scaling.md", "../../outside.md")).toBeUndefined();
  });

  it("reads a link to the repository on GitHub as the file or folder it names on main", () => {
    const repository = "https://github.com/ignite-element/tools";
    expect(repositoryPath(`${repository}/blob/main/src/tests/docs.test.ts#L3`)).toEqual({
      kind: "blob",
      path: "src/tests/docs.test.ts",
    });
    expect(repositoryPath(`${repository}/tree/main/examples/redux`)).toEqual({
      kind: "tree",
      path: "examples/redux",
    });
    expect(repositoryPath(`${repository}/issues`)).toBeUndefined();
  });

  it("has an anchor for each heading as GitHub slugs it, numbered when repeated, and for each HTML id", () => {
    const headings = [
      "# Serving a component",
      "## From the command line: `ignite-mcp`",
      "### The execute context: progress, logs and cancellation",
      "## [Approval](approval.md) — *who* decides?",
      "## MCP_HOST and 2025-11-25",
      "## Options",
      "## Options",
      '<a id="kept-here"></a>',
      "```md",
      "## Not a heading: code",
      "```",
    ].join("\n");
    expect([...anchorsOf(headings)]).toEqual([
      "serving-a-component",
      "from-the-command-line-ignite-mcp",
      "the-execute-context-progress-logs-and-cancellation",
      "approval--who-decides",
      "mcp_host-and-2025-11-25",
      "options",
      "options-1",
      "kept-here",
    ]);
  });

  it("reads a link's anchor, decoded, and none where it has none", () => {
    expect(anchorOf("serving.md#cancellation")).toBe("cancellation");
    expect(anchorOf("#caf%C3%A9")).toBe("café");
    expect(anchorOf("serving.md")).toBeUndefined();
  });
});

/**
 * A schema mistake is the application's bug, found when the schema is read (the manifest, at
 * construction), never at a model's call: a misspelled keyword, a default its own schema
 * refuses, a malformed value. Both adapters find the same mistakes.
 */

import fc from "fast-check";
import {
  type AgentSchema,
  buildManifest,
  igniteTools,
  type JsonSchema,
  resolveCall,
} from "ignite-element/tools";
import { ajvValidator } from "ignite-element/tools/ajv";
import { cfworkerValidator } from "ignite-element/tools/cfworker";
import { describe, expect, it } from "vitest";

const ADAPTERS = [
  ["ajv", ajvValidator],
  ["cfworker", cfworkerValidator],
] as const;

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

const pointerSegment = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");
const isRegex = (pattern: string) => {
  try {
    return Boolean(new RegExp(pattern, "u"));
  } catch {
    return false;
  }
};

function schemaWith(input: JsonSchema, name = "add"): AgentSchema {
  return { commands: { [name]: { description: "Add to the count.", input } } };
}

describe.each(ADAPTERS)("reading schemas with the %s adapter", (_name, make) => {
  const options = { validator: make() };
  const problem = (input: JsonSchema) => {
    try {
      buildManifest(schemaWith(input), undefined, options);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      return String((error as TypeError).message);
    }
  };

  it("refuses a misspelled keyword with a TypeError naming the command, the keyword and where it is", () => {
    const input = { type: "object", properties: { by: { type: "integer", minimun: 1 } } };
    expect(problem(input)).toBe(
      'Command "add" has an invalid input schema: unknown keyword "minimun" at /properties/by ' +
        '(yours: prefix it "x-" or list it in the validator\'s `keywords`)',
    );
    expect(problem({ type: "object", requierd: ["n"] })).toMatch(
      /^Command "add" has an invalid input schema: unknown keyword "requierd" at the root /,
    );
  });

  it("refuses it when igniteTools first reads the schema, before any model call", () => {
    const component = {
      getSchema: () => schemaWith({ type: "integer", minimun: 1 }),
      execute: () => ({ state: {}, events: [] }),
    };
    expect(() => igniteTools(component, undefined, options).manifest()).toThrow(
      /Command "add" has an invalid input schema: unknown keyword "minimun"/,
    );
  });

  it("finds unknown keywords deep in subschemas, and in output schemas", () => {
    const deep = {
      type: "object",
      properties: { tags: { type: "array", items: { anyOf: [{ type: "string", maxlength: 3 }] } } },
    };
    expect(problem(deep)).toMatch(
      /unknown keyword "maxlength" at \/properties\/tags\/items\/anyOf\/0 /,
    );
    const withOutput: AgentSchema = {
      commands: { read: { output: { type: "object", propertys: {} } } },
    };
    expect(() => buildManifest(withOutput, undefined, options)).toThrow(
      /Command "read" has an invalid output schema: unknown keyword "propertys"/,
    );
  });

  it("allows x- keys, every annotation keyword, and keyword-like keys inside data", () => {
    const annotated = {
      type: "object",
      title: "Add",
      description: "How much to add.",
      $comment: "for maintainers",
      "x-units": "items",
      deprecated: false,
      readOnly: false,
      writeOnly: false,
      examples: [{ by: 1 }],
      default: { by: 1 },
      properties: {
        by: { type: "integer", default: 1, "x-ui": { minimun: 0 } },
        blob: { type: "string", contentEncoding: "base64", contentMediaType: "application/json" },
        doc: { type: "string", contentSchema: { type: "object" } },
        unit: { const: { minimun: 1 }, enum: [{ requierd: true }, { minimun: 1 }] },
      },
    };
    expect(problem(annotated)).toBeUndefined();
  });

  it("accepts the keywords the application lists as its own vocabulary, as annotations", () => {
    const input = { type: "object", units: "cm", properties: { a: { widget: "slider" } } };
    const listed = { validator: make({ keywords: ["units", "widget"] }) };
    expect(problem(input)).toMatch(/unknown keyword "units" at the root/);
    expect(() => buildManifest(schemaWith(input), undefined, listed)).not.toThrow();
    expect(resolveCall(schemaWith(input), "add", { a: 1 }, undefined, listed).ok).toBe(true);
  });

  it("refuses a keyword of the other draft: prefixItems in draft-07, additionalItems in 2020-12", () => {
    expect(problem({ $schema: DRAFT_07, prefixItems: [{}] })).toMatch(
      /unknown keyword "prefixItems" at the root/,
    );
    expect(problem({ additionalItems: false })).toMatch(
      /unknown keyword "additionalItems" at the root/,
    );
    expect(problem({ $schema: DRAFT_07, items: [{}], additionalItems: false })).toBeUndefined();
  });

  const TYPE_NAMES = '"array", "boolean", "integer", "null", "number", "object", "string"';
  it.each([
    [
      { type: "strnig" },
      `/type is "strnig": must be one of ${TYPE_NAMES}, or a non-empty array of them, each once`,
    ],
    [
      { properties: { tags: { type: ["string", "strng"] } } },
      `/properties/tags/type is ["string","strng"]: must be one of ${TYPE_NAMES}, or a non-empty array of them, each once`,
    ],
    [{ minimum: "1" }, '/minimum is "1": must be a number'],
    [{ required: "a" }, '/required is "a": must be an array of strings, each once'],
    [{ properties: [] }, "/properties is []: must be an object of schemas"],
    [{ minLength: -1 }, "/minLength is -1: must be a non-negative integer"],
    [{ items: { maxItems: 1.5 } }, "/items/maxItems is 1.5: must be a non-negative integer"],
    [{ pattern: "(" }, '/pattern is "(": must be a regular expression'],
    [
      { patternProperties: { "(": {} } },
      '/patternProperties is {"(":{}}: must be an object of schemas keyed by regular expressions',
    ],
    [{ multipleOf: 0 }, "/multipleOf is 0: must be a number above 0"],
    [
      { items: [{}] },
      "/items is [{}]: must be a schema (an object, or true or false), or in draft-07 an array of schemas",
    ],
    [{ $defs: { a: { enum: "x" } } }, '/$defs/a/enum is "x": must be an array'],
    [{ allOf: [] }, "/allOf is []: must be a non-empty array of schemas"],
    [{ not: 1 }, "/not is 1: must be a schema (an object, or true or false)"],
    [{ uniqueItems: "yes" }, '/uniqueItems is "yes": must be true or false'],
    [
      { type: ["string", "string"] },
      `/type is ["string","string"]: must be one of ${TYPE_NAMES}, or a non-empty array of them, each once`,
    ],
    [
      { dependentRequired: { a: "b" } },
      '/dependentRequired is {"a":"b"}: must be an object of arrays of property names, each name once',
    ],
    [
      { dependentRequired: { a: ["b", "b"] } },
      '/dependentRequired is {"a":["b","b"]}: must be an object of arrays of property names, each name once',
    ],
    [
      { properties: { a: { $anchor: "1a" } } },
      '/properties/a/$anchor is "1a": must be a name: a letter or _, then letters, digits, -, _ or .',
    ],
    [{ required: ["a", "a"] }, '/required is ["a","a"]: must be an array of strings, each once'],
    [{ properties: { "a/b~": { title: 2 } } }, "/properties/a~1b~0/title is 2: must be a string"],
    [{ title: ["y".repeat(100)] }, `/title is ["${"y".repeat(77)}…: must be a string`],
  ])(
    "refuses the malformed schema %j, naming where the value is, the value and what it must be",
    (input, message) => {
      expect(problem(input)).toBe(`Command "add" has an invalid input schema: ${message}`);
    },
  );

  it("refuses a schema holding a BigInt, naming where it is, for every validator", () => {
    expect(problem({ properties: { n: { type: "integer", maximum: 10n } } })).toBe(
      'Command "add" has an invalid input schema: /properties/n/maximum is 10n: must be JSON data, which has no BigInt',
    );
  });

  it("reads the names inside $defs as names: JSON-Schema-Test-Suite, empty tokens in $ref json-pointer", () => {
    // draft2020-12/ref.json, "empty tokens in $ref json-pointer", verbatim.
    const suite = {
      description: "empty tokens in $ref json-pointer",
      schema: {
        $defs: {
          "": {
            $defs: {
              "": { type: "number" },
            },
          },
        },
        allOf: [
          {
            $ref: "#/$defs//$defs/",
          },
        ],
      },
      tests: [
        { description: "number is valid", data: 1, valid: true },
        { description: "non-number is invalid", data: "a", valid: false },
      ],
    };
    const schema = schemaWith(suite.schema);
    expect(problem(suite.schema)).toBeUndefined();
    for (const test of suite.tests) {
      expect(resolveCall(schema, "add", test.data, undefined, options).ok, test.description).toBe(
        test.valid,
      );
    }
  });

  // The maps whose keys are names the application chose, each with what makes a name usable.
  const MAPS = [
    ["$defs", () => true],
    ["definitions", () => true],
    ["properties", () => true],
    ["dependentSchemas", () => true],
    ["patternProperties", isRegex],
  ] as const;
  const KEYWORD_LIKE = ["", "type", "$ref", "properties", "minimun", "x-", "/", "~0", "__proto__"];

  it.each(MAPS)(
    "reads every key inside %s as a name, even one spelled like a keyword",
    (map, usable) => {
      const names = fc.oneof(fc.constantFrom(...KEYWORD_LIKE), fc.string()).filter(usable);
      fc.assert(
        fc.property(names, (name) => {
          const named = { [map]: JSON.parse(JSON.stringify({ [name]: { type: "string" } })) };
          expect(problem(named)).toBeUndefined();
          // What is inside the named subschema is still read as keywords, at the name's pointer.
          const misspelled = { [map]: JSON.parse(JSON.stringify({ [name]: { minimun: 1 } })) };
          expect(problem(misspelled)).toBe(
            `Command "add" has an invalid input schema: unknown keyword "minimun" at /${map}/${pointerSegment(name)} ` +
              '(yours: prefix it "x-" or list it in the validator\'s `keywords`)',
          );
        }),
        { numRuns: 60 },
      );
    },
  );

  it("refuses a $schema of another draft, naming it", () => {
    expect(problem({ $schema: "http://json-schema.org/draft-04/schema#" })).toBe(
      'Command "add" has an invalid input schema: unsupported $schema "http://json-schema.org/draft-04/schema#"; use draft 2020-12 or draft-07',
    );
  });

  it("refuses a default its own schema refuses, naming the command, where and why", () => {
    const input = {
      type: "object",
      properties: { n: { type: "integer", minimum: 1, default: 0 } },
    };
    expect(problem(input)).toMatch(
      /^Command "add" has an invalid input schema: the default 0 at \/properties\/n breaks its own schema: (must be >= 1|0 is less than 1)$/,
    );
    const viaRef = {
      type: "object",
      properties: { at: { $ref: "#/$defs/point", default: { x: "left" } } },
      $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
    };
    expect(problem(viaRef)).toMatch(
      /the default \{"x":"left"\} at \/properties\/at breaks its own schema: \/x (must be number|Instance type "string" is invalid)/,
    );
  });

  it("validates what the model sent, then fills the defaults into the copy execute receives", () => {
    const input = {
      type: "object",
      properties: { n: { type: "integer", minimum: 1, default: 2 }, tag: { default: "x" } },
      maxProperties: 2,
    };
    const sent = { tag: "y" };
    const route = resolveCall(schemaWith(input), "add", sent, undefined, options);
    // Filled before validation, `{ tag, n }` would be 2 properties; sent, it is 1: it is valid.
    expect(route).toEqual({ ok: true, value: { command: "add", input: { tag: "y", n: 2 } } });
    expect(sent).toEqual({ tag: "y" });
    const fewer = resolveCall(
      schemaWith({ ...input, maxProperties: 1 }),
      "add",
      sent,
      undefined,
      options,
    );
    expect(fewer).toEqual({ ok: true, value: { command: "add", input: { tag: "y", n: 2 } } });
  });

  it("fills defaults through $ref and allOf, into nested objects and array items", () => {
    const input = {
      type: "object",
      allOf: [{ properties: { mode: { default: "auto" } } }],
      properties: {
        rooms: { type: "array", items: { $ref: "#/$defs/room" } },
        pair: { type: "array", prefixItems: [{ default: 1 }, { default: 2 }] },
        constructor: { type: "string", default: "own" },
      },
      $defs: { room: { type: "object", properties: { lit: { default: false } } } },
    };
    const route = resolveCall(
      schemaWith(input),
      "add",
      { rooms: [{}, { lit: true }], pair: [5] },
      undefined,
      options,
    );
    expect(route.ok && route.value.input).toEqual({
      mode: "auto",
      rooms: [{ lit: false }, { lit: true }],
      pair: [5, 2],
      constructor: "own",
    });
  });

  it("leaves defaults under anyOf, oneOf, not and if as annotations", () => {
    const input = {
      type: "object",
      anyOf: [{ properties: { a: { default: 1 } } }],
      if: { properties: { b: { default: 2 } } },
    };
    const route = resolveCall(schemaWith(input), "add", {}, undefined, options);
    expect(route.ok && route.value.input).toEqual({});
  });
});

describe("where the adapters' vocabularies differ", () => {
  it("an input whose prototype carries a property: ajv reads it, cfworker only own ones", () => {
    // Never so for a model's JSON: JSON.parse makes plain objects, which inherit no such name.
    class Ticket {
      get title() {
        return "inherited";
      }
    }
    const schema = schemaWith({ type: "object", required: ["title"] });
    const ajv = { validator: ajvValidator() };
    const cfworker = { validator: cfworkerValidator() };
    expect(resolveCall(schema, "add", new Ticket(), undefined, ajv).ok).toBe(true);
    expect(resolveCall(schema, "add", new Ticket(), undefined, cfworker).ok).toBe(false);
  });

  it("a JavaScript undefined property: ajv skips it, cfworker's library cannot read it", () => {
    const schema = schemaWith({ type: "object", properties: { a: { type: "string" } } });
    const input = { a: undefined };
    expect(resolveCall(schema, "add", input, undefined, { validator: ajvValidator() }).ok).toBe(
      true,
    );
    expect(
      resolveCall(schema, "add", input, undefined, { validator: cfworkerValidator() }),
    ).toMatchObject({
      ok: false,
      error: {
        kind: "InvalidInput",
        issues: [
          {
            path: "",
            message: 'could not be read: Instances of "undefined" type are not supported.',
          },
        ],
      },
    });
  });

  it("ajv's meta-schema also refuses a $vocabulary value that is not true or false; cfworker takes it", () => {
    const input = { $vocabulary: { "https://example.com/v": 1 } };
    expect(() =>
      buildManifest(schemaWith(input), undefined, { validator: ajvValidator() }),
    ).toThrow(
      new TypeError(
        'Command "add" has an invalid input schema: /$vocabulary/https:~1~1example.com~1v is 1: must be boolean',
      ),
    );
    expect(() =>
      buildManifest(schemaWith(input), undefined, { validator: cfworkerValidator() }),
    ).not.toThrow();
  });

  it("cfworker refuses $dynamicRef, which its library reads as an annotation; ajv implements it", () => {
    const input = {
      $dynamicAnchor: "node",
      type: "object",
      properties: { next: { $dynamicRef: "#node" } },
    };
    expect(() =>
      buildManifest(schemaWith(input), undefined, { validator: ajvValidator() }),
    ).not.toThrow();
    expect(() =>
      buildManifest(schemaWith(input), undefined, { validator: cfworkerValidator() }),
    ).toThrow(/unknown keyword "\$dynamicAnchor" at the root/);
  });

  it("a listed `nullable` is still read by ajv (as part of `type`), and only annotates with cfworker", () => {
    const input = { type: "string", nullable: true };
    const ajv = { validator: ajvValidator({ keywords: ["nullable"] }) };
    const cfworker = { validator: cfworkerValidator({ keywords: ["nullable"] }) };
    expect(resolveCall(schemaWith(input), "add", null, undefined, ajv).ok).toBe(true);
    expect(resolveCall(schemaWith(input), "add", null, undefined, cfworker).ok).toBe(false);
  });
});

/**
 * One validation suite, run against both adapters: the same verdict, and issues of the same kind
 * (the same JSON Pointer paths and keywords) on the same schemas and inputs. Where a model must
 * read the same sentence to act the same way — a missing or extra property — the messages are
 * the same too; the others are each library's own wording (ajv's is asserted
 * in full; cfworker's is listed in WORDING). Where the libraries differ, the difference is
 * asserted here, per adapter, and listed in docs/validation.md.
 */

import type { InputValidator, JsonSchema, ValidationIssue } from "ignite-element/tools";
import { ajvValidator } from "ignite-element/tools/ajv";
import { cfworkerValidator } from "ignite-element/tools/cfworker";
import { describe, expect, it } from "vitest";

const ADAPTERS = [
  ["ajv", ajvValidator],
  ["cfworker", cfworkerValidator],
] as const;
type AdapterName = (typeof ADAPTERS)[number][0];

type Verdict = "valid" | ValidationIssue[];

/** Issues in one order (path, keyword, message): the order may differ between adapters. */
function sorted(verdict: Verdict): Verdict {
  if (verdict === "valid") return verdict;
  const key = (issue: ValidationIssue) =>
    `${issue.path}\u0000${issue.keyword}\u0000${issue.message}`;
  return [...verdict].sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

// The issues both adapters word alike: what a model fixes at a path the library would not name.
const ALIKE = new Set([
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "false schema",
]);

/** What must be the same across adapters: the verdict, each (path, keyword), the ALIKE words. */
function kind(verdict: Verdict): Verdict | string[] {
  if (verdict === "valid") return verdict;
  const kinds = verdict.map((issue) =>
    ALIKE.has(issue.keyword ?? "")
      ? `${issue.path} ${issue.keyword}: ${issue.message}`
      : `${issue.path} ${issue.keyword}`,
  );
  return [...new Set(kinds)].sort();
}

/** The verdict of `validator` on `input`, issues sorted. */
function verdict(validator: InputValidator, schema: JsonSchema, input: unknown): Verdict {
  const problem = validator.checkSchema(schema);
  if (problem !== undefined) throw new Error(`schema refused: ${problem}`);
  const result = validator.compile(schema)(input);
  return result.ok ? "valid" : sorted(result.error);
}

const issue = (path: string, message: string, keyword?: string): ValidationIssue =>
  keyword === undefined ? { path, message } : { path, message, keyword };
const object = (properties: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties,
  ...extra,
});

const IF_STRING: JsonSchema = {
  if: { type: "string" },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own if/then/else keyword
  then: { minLength: 2 },
  else: { minimum: 3 },
};

/** [what it shows, schema, input, the verdict of both adapters] */
const SAME: [string, JsonSchema, unknown, Verdict][] = [
  ["a number within its bounds", { type: "number", maximum: 12 }, 12, "valid"],
  [
    "a string where a number belongs",
    object({ limit: { type: "number" } }),
    { limit: "12" },
    [issue("/limit", "must be number", "type")],
  ],
  [
    "a value of none of several types",
    { type: ["string", "number"] },
    true,
    [issue("", "must be string,number", "type")],
  ],
  ["an integer written as 1.0", { type: "integer" }, 1.0, "valid"],
  [
    "a fraction where an integer belongs",
    { type: "integer" },
    1.5,
    [issue("", "must be integer", "type")],
  ],
  ["null for type null", { type: "null" }, null, "valid"],
  [
    "an array where an object belongs",
    { type: "object" },
    [],
    [issue("", "must be object", "type")],
  ],
  ["an object where an array belongs", { type: "array" }, {}, [issue("", "must be array", "type")]],
  ["a maximum passed", { maximum: 12 }, 13, [issue("", "must be <= 12", "maximum")]],
  ["a minimum missed", { minimum: 0 }, -1, [issue("", "must be >= 0", "minimum")]],
  [
    "an exclusive maximum reached",
    { exclusiveMaximum: 10 },
    10,
    [issue("", "must be < 10", "exclusiveMaximum")],
  ],
  [
    "an exclusive minimum reached",
    { exclusiveMinimum: 1 },
    1,
    [issue("", "must be > 1", "exclusiveMinimum")],
  ],
  ["0.3, a multiple of 0.1 in decimal", { multipleOf: 0.1 }, 0.3, "valid"],
  ["1.1, a multiple of 0.1 in decimal", { multipleOf: 0.1 }, 1.1, "valid"],
  [
    "0.35, not a multiple of 0.1",
    { multipleOf: 0.1 },
    0.35,
    [issue("", "must be multiple of 0.1", "multipleOf")],
  ],
  [
    "5, not a multiple of 1e308",
    { multipleOf: 1e308 },
    5,
    [issue("", "must be multiple of 1e+308", "multipleOf")],
  ],
  [
    "1e-11, not a multiple of 2",
    { multipleOf: 2 },
    1e-11,
    [issue("", "must be multiple of 2", "multipleOf")],
  ],
  ["1e21, a multiple of 7e20", { multipleOf: 7e20 }, 2.1e21, "valid"],
  ["15, a multiple of 5", { type: "integer", multipleOf: 5 }, 15, "valid"],
  [
    "a string too long and off its pattern",
    { type: "string", maxLength: 4, pattern: "^[A-Z]+$" },
    "abcde",
    [
      issue("", "must NOT have more than 4 characters", "maxLength"),
      issue("", 'must match pattern "^[A-Z]+$"', "pattern"),
    ],
  ],
  [
    "a string too short, counted in code points",
    { type: "string", minLength: 2 },
    "😀",
    [issue("", "must NOT have fewer than 2 characters", "minLength")],
  ],
  [
    "every missing required property, each at its own path",
    object({ title: {}, due: {} }, { required: ["title", "due"] }),
    {},
    [issue("/due", "is required", "required"), issue("/title", "is required", "required")],
  ],
  [
    "a property additionalProperties forbids, at its own path",
    object({ a: { type: "string" } }, { additionalProperties: false }),
    { a: "x", b: 1 },
    [issue("/b", "is not allowed", "additionalProperties")],
  ],
  [
    "an additional property checked against additionalProperties",
    object({ a: {} }, { additionalProperties: { type: "number" } }),
    { a: "x", b: "y" },
    [issue("/b", "must be number", "type")],
  ],
  [
    "a property unevaluatedProperties forbids, at its own path",
    { type: "object", allOf: [{ properties: { a: {} } }], unevaluatedProperties: false },
    { a: "x", z: 1 },
    [issue("/z", "is not allowed", "unevaluatedProperties")],
  ],
  [
    "a property whose schema is false",
    object({ x: false }),
    { x: 1 },
    [issue("/x", "is not allowed", "false schema")],
  ],
  [
    "a pattern property of the wrong type",
    { patternProperties: { "^x": { type: "string" } } },
    { x1: 1 },
    [issue("/x1", "must be string", "type")],
  ],
  [
    "too few and too many properties",
    { minProperties: 2, maxProperties: 2 },
    { a: 1 },
    [issue("", "must NOT have fewer than 2 properties", "minProperties")],
  ],
  [
    "too many properties",
    { maxProperties: 1 },
    { a: 1, b: 2 },
    [issue("", "must NOT have more than 1 properties", "maxProperties")],
  ],
  [
    "a property required when another is present",
    { dependentRequired: { a: ["b", "c"] } },
    { a: 1 },
    [issue("", "must have properties b, c when property a is present", "dependentRequired")],
  ],
  [
    "a dependent schema failed",
    { dependentSchemas: { a: { required: ["b"] } } },
    { a: 1 },
    [issue("/b", "is required", "required")],
  ],
  [
    "a property name too long, at the property",
    { propertyNames: { maxLength: 3 } },
    { abcd: 1, ab: 2 },
    [issue("/abcd", "name must NOT have more than 3 characters", "maxLength")],
  ],
  [
    "an item of the wrong type, with its index in the path",
    { type: "array", items: { type: "integer" } },
    [1, "2"],
    [issue("/1", "must be integer", "type")],
  ],
  [
    "too few items",
    { minItems: 1 },
    [],
    [issue("", "must NOT have fewer than 1 items", "minItems")],
  ],
  [
    "too many items",
    { maxItems: 1 },
    [1, 2],
    [issue("", "must NOT have more than 1 items", "maxItems")],
  ],
  [
    "duplicate items",
    { uniqueItems: true },
    [1, 1, 2, 2],
    [issue("", "must NOT have duplicate items", "uniqueItems")],
  ],
  [
    "no item matching contains",
    { contains: { type: "string" } },
    [1, 2],
    [issue("", "must contain at least 1 valid item(s)", "contains")],
  ],
  [
    "a value outside an enum, listing the allowed values",
    { enum: ["heat", "cool"] },
    "fan",
    [issue("", 'must be one of "heat", "cool"', "enum")],
  ],
  ["a value other than a const", { const: "C" }, "F", [issue("", 'must be "C"', "const")]],
  [
    "an object other than a const",
    { const: { a: 1 } },
    { a: 2 },
    [issue("", 'must be {"a":1}', "const")],
  ],
  [
    "no anyOf branch matched, each branch saying why",
    { anyOf: [{ type: "string" }, { type: "integer" }] },
    1.5,
    [
      issue("", "must be integer", "type"),
      issue("", "must be string", "type"),
      issue("", "must match a schema in anyOf", "anyOf"),
    ],
  ],
  [
    "no oneOf branch matched",
    { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] },
    1.5,
    [
      issue("", "must be >= 2", "minimum"),
      issue("", "must be integer", "type"),
      issue("", "must match exactly one schema in oneOf", "oneOf"),
    ],
  ],
  [
    "two oneOf branches matched, said as such",
    { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] },
    3,
    [issue("", "must match exactly one schema in oneOf but matches more than one", "oneOf")],
  ],
  [
    "an ambiguous oneOf past a failing branch, without the branches' failures",
    { oneOf: [{ type: "string" }, { type: "integer" }, { minimum: 2 }, { type: "array" }] },
    3,
    [issue("", "must match exactly one schema in oneOf but matches more than one", "oneOf")],
  ],
  [
    "a value a not-schema matches",
    { not: { type: "string" } },
    "x",
    [issue("", "must NOT be valid", "not")],
  ],
  [
    "an if whose then failed",
    IF_STRING,
    "a",
    [
      issue("", 'must match "then" schema', "if"),
      issue("", "must NOT have fewer than 2 characters", "minLength"),
    ],
  ],
  [
    "an if whose else failed",
    IF_STRING,
    1,
    [issue("", 'must match "else" schema', "if"), issue("", "must be >= 3", "minimum")],
  ],
  [
    "a failure through $ref, at the path of the data",
    object(
      { from: { $ref: "#/$defs/point" }, to: { $ref: "#/$defs/point" } },
      { $defs: { point: object({ x: { type: "number" } }, { required: ["x"] }) } },
    ),
    { from: { x: 1 }, to: {} },
    [issue("/to/x", "is required", "required")],
  ],
  [
    "a keyword beside $ref applies (2020-12)",
    { minimum: 1, $ref: "#/$defs/a", $defs: { a: { maximum: 0 } } },
    0.5,
    [issue("", "must be <= 0", "maximum"), issue("", "must be >= 1", "minimum")],
  ],
  [
    "a nested failure, with ~ and / escaped in the path",
    object({
      rooms: {
        type: "array",
        items: object({ "a/b~c": object({ level: { type: "integer" } }) }),
      },
    }),
    { rooms: [{}, { "a/b~c": { level: 1.5 } }] },
    [issue("/rooms/1/a~1b~0c/level", "must be integer", "type")],
  ],
  [
    "property names with spaces, % and # kept as they are in the path",
    object({ "a b%": { type: "string" }, "é#": { type: "string" } }),
    { "a b%": 1, "é#": 2 },
    [issue("/a b%", "must be string", "type"), issue("/é#", "must be string", "type")],
  ],
  [
    "draft-07: array items",
    { $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: "string" }] },
    [1],
    [issue("/0", "must be string", "type")],
  ],
  [
    "draft-07: an assertion beside $ref applies, as ajv applies it in every draft",
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      $ref: "#/definitions/any",
      definitions: { any: {} },
      minimum: 1,
    },
    0,
    [issue("", "must be >= 1", "minimum")],
  ],
  [
    "draft-07: dependencies as a list of names",
    { $schema: "http://json-schema.org/draft-07/schema#", dependencies: { a: ["b"] } },
    { a: 1 },
    [issue("", "must have property b when property a is present", "dependencies")],
  ],
  [
    "draft-07: a $ref with only definitions and annotations beside it",
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      $ref: "#/definitions/name",
      description: "A name.",
      definitions: { name: { type: "string", minLength: 3 } },
    },
    "ab",
    [issue("", "must NOT have fewer than 3 characters", "minLength")],
  ],
  ["an unknown format, ignored", { format: "phone" }, "x", "valid"],
  [
    "only own properties meet required: Object.prototype's do not",
    { type: "object", required: ["constructor", "toString", "__proto__"] },
    {},
    [
      issue("/__proto__", "is required", "required"),
      issue("/constructor", "is required", "required"),
      issue("/toString", "is required", "required"),
    ],
  ],
  [
    "optional properties named like Object.prototype members may be omitted",
    object({
      constructor: { type: "string" },
      toString: { type: "string" },
      valueOf: { type: "string" },
    }),
    {},
    "valid",
  ],
  [
    "optional properties named like Object.prototype members are checked when sent",
    object({ constructor: { type: "string" } }),
    JSON.parse('{"constructor": 1}'),
    [issue("/constructor", "must be string", "type")],
  ],
  [
    "a declared __proto__ property (schema from JSON) is checked when sent",
    JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    ),
    JSON.parse('{"__proto__": 5}'),
    [issue("/__proto__", "must be string", "type")],
  ],
  [
    "a declared __proto__ property (schema from JSON) is accepted when right",
    JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    ),
    JSON.parse('{"__proto__": "x"}'),
    "valid",
  ],
  [
    "a declared, required __proto__ property (schema from JSON) is required",
    JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    ),
    {},
    [issue("/__proto__", "is required", "required")],
  ],
  [
    "a declared __proto__ property beside a pattern for the same name: both apply",
    JSON.parse(
      '{"properties":{"__proto__":{"type":"string"}},"patternProperties":{"^__proto__$":{"minLength":3}}}',
    ),
    JSON.parse('{"__proto__": "x"}'),
    [issue("/__proto__", "must NOT have fewer than 3 characters", "minLength")],
  ],
  [
    "an input key JSON.parse made __proto__ stays data",
    object({ __safe: {} }, { additionalProperties: { type: "object" } }),
    JSON.parse('{"__proto__": {"polluted": true}}'),
    "valid",
  ],
];

// Formats both libraries check, with the same verdict. `true`: valid.
const FORMATS: [string, unknown, boolean][] = [
  ["date-time", "2026-12-02T10:00:00Z", true],
  ["date-time", "2026-12-02T10:00:00+01:00", true],
  ["date-time", "2026-12-02T10:00:00.123Z", true],
  ["date-time", "2026-12-02T10:00:00", false],
  ["date-time", "2026-02-30T10:00:00Z", false],
  ["date-time", "yesterday", false],
  ["date", "2024-02-29", true],
  ["date", "2026-02-29", false],
  ["date", "2026-1-2", false],
  ["time", "10:00:00Z", true],
  ["time", "25:00:00Z", false],
  ["duration", "P1D", true],
  ["duration", "PT", false],
  ["email", "a@b.co", true],
  ["email", "nope", false],
  ["hostname", "example.com", true],
  ["hostname", "-bad.com", false],
  ["ipv4", "127.0.0.1", true],
  ["ipv4", "256.0.0.1", false],
  ["ipv6", "::1", true],
  ["ipv6", "1::2::3", false],
  ["uri", "https://a.b/c?d#e", true],
  ["uri", "a.b", false],
  ["uri-reference", "/a/b", true],
  ["uri-template", "/a/{b}", true],
  ["uuid", "123e4567-e89b-12d3-a456-426614174000", true],
  ["uuid", "123e4567e89b12d3a456426614174000", false],
  ["json-pointer", "/a/b", true],
  ["json-pointer", "a", false],
  ["relative-json-pointer", "0/a", true],
  ["regex", "^a+$", true],
  ["regex", "(", false],
  ["date-time", 5, true], // formats apply to strings only
];

/** [keyword, schema, input, each adapter's issues]: the same kind, in each library's words. */
const WORDING: [string, JsonSchema, unknown, Record<AdapterName, ValidationIssue[]>][] = (
  [
    [
      "type",
      { type: "number" },
      "1",
      "must be number",
      'Instance type "string" is invalid. Expected "number"',
    ],
    [
      "type",
      { type: ["string", "number"] },
      true,
      "must be string,number",
      'Instance type "boolean" is invalid. Expected "string", "number"',
    ],
    ["maximum", { maximum: 12 }, 13, "must be <= 12", "13 is greater than 12"],
    ["minimum", { minimum: 0 }, -1, "must be >= 0", "-1 is less than 0"],
    [
      "exclusiveMaximum",
      { exclusiveMaximum: 10 },
      10,
      "must be < 10",
      "10 is greater than or equal to 10",
    ],
    ["exclusiveMinimum", { exclusiveMinimum: 1 }, 1, "must be > 1", "1 is less than or equal to 1"],
    [
      "multipleOf",
      { multipleOf: 0.1 },
      0.35,
      "must be multiple of 0.1",
      "0.35 is not a multiple of 0.1",
    ],
    [
      "minLength",
      { minLength: 2 },
      "a",
      "must NOT have fewer than 2 characters",
      "String is too short (1 < 2)",
    ],
    [
      "maxLength",
      { maxLength: 1 },
      "ab",
      "must NOT have more than 1 characters",
      "String is too long (2 > 1)",
    ],
    [
      "pattern",
      { pattern: "^[A-Z]+$" },
      "a",
      'must match pattern "^[A-Z]+$"',
      "String does not match pattern",
    ],
    [
      "format",
      { format: "email" },
      "x",
      'must match format "email"',
      'String does not match format "email"',
    ],
    [
      "minItems",
      { minItems: 1 },
      [],
      "must NOT have fewer than 1 items",
      "Array has too few items (0 < 1)",
    ],
    [
      "maxItems",
      { maxItems: 1 },
      [1, 2],
      "must NOT have more than 1 items",
      "Array has too many items (2 > 1)",
    ],
    [
      "uniqueItems",
      { uniqueItems: true },
      [1, 1],
      "must NOT have duplicate items",
      "Duplicate items at indexes 0 and 1",
    ],
    [
      "minProperties",
      { minProperties: 2 },
      { a: 1 },
      "must NOT have fewer than 2 properties",
      "Instance does not have at least 2 properties",
    ],
    [
      "maxProperties",
      { maxProperties: 1 },
      { a: 1, b: 1 },
      "must NOT have more than 1 properties",
      "Instance has more than 1 properties",
    ],
    [
      "enum",
      { enum: ["heat", "cool"] },
      "fan",
      'must be one of "heat", "cool"',
      'Instance does not match any of ["heat","cool"]',
    ],
    ["const", { const: "C" }, "F", 'must be "C"', 'Instance does not match "C"'],
    ["not", { not: {} }, 1, "must NOT be valid", 'Instance matched "not" schema'],
    [
      "contains",
      { contains: { type: "string" } },
      [1],
      "must contain at least 1 valid item(s)",
      "Array does not contain item matching schema",
    ],
  ] as const
).map(([keyword, schema, input, ajv, cfworker]) => [
  keyword,
  schema,
  input,
  { ajv: [issue("", ajv, keyword)], cfworker: [issue("", cfworker, keyword)] },
]);
WORDING.push([
  "a oneOf no branch of which matched",
  { oneOf: [{ type: "string" }, { type: "array" }] },
  1,
  {
    ajv: [
      issue("", "must be string", "type"),
      issue("", "must be array", "type"),
      issue("", "must match exactly one schema in oneOf", "oneOf"),
    ],
    cfworker: [
      issue("", 'Instance type "number" is invalid. Expected "string"', "type"),
      issue("", 'Instance type "number" is invalid. Expected "array"', "type"),
      issue("", "Instance does not match exactly one subschema (0 matches)", "oneOf"),
    ],
  },
]);
WORDING.push([
  "a oneOf two branches of which matched, said to be ambiguous",
  { oneOf: [{ type: "integer" }, { minimum: 2 }, { type: "string" }] },
  3,
  {
    ajv: [issue("", "must match exactly one schema in oneOf but matches more than one", "oneOf")],
    cfworker: [issue("", "Instance does not match exactly one subschema (2 matches)", "oneOf")],
  },
]);
WORDING.push([
  "a property name, at the property",
  { propertyNames: { maxLength: 3 } },
  { abcd: 1 },
  {
    ajv: [issue("/abcd", "name must NOT have more than 3 characters", "maxLength")],
    cfworker: [issue("/abcd", "String is too long (4 > 3)", "maxLength")],
  },
]);

/** [what differs, schema, input, the verdict of each adapter] */
const DIFFERENT: [string, JsonSchema, unknown, Record<AdapterName, Verdict>][] = [
  [
    "items past a closed tuple: ajv names the array and the count, cfworker each extra item",
    { prefixItems: [{ type: "string" }], items: false },
    ["a", 1, 2],
    {
      ajv: [issue("", "must NOT have more than 1 items", "items")],
      cfworker: [
        issue("/1", "is not allowed", "false schema"),
        issue("/2", "is not allowed", "false schema"),
      ],
    },
  ],
  [
    "an unevaluated item: ajv names the array and the count, cfworker the item",
    { prefixItems: [{ type: "string" }], unevaluatedItems: false },
    ["a", 1],
    {
      ajv: [issue("", "must NOT have more than 1 items", "unevaluatedItems")],
      cfworker: [issue("/1", "is not allowed", "false schema")],
    },
  ],
  [
    "draft-07 additionalItems: ajv names the array and the count, cfworker the item",
    { $schema: "http://json-schema.org/draft-07/schema#", items: [{}], additionalItems: false },
    [1, 2],
    {
      ajv: [issue("", "must NOT have more than 1 items", "additionalItems")],
      cfworker: [issue("/1", "is not allowed", "false schema")],
    },
  ],
  [
    "too few items matching contains: cfworker also says why each other item missed",
    { contains: { type: "string" }, minContains: 2 },
    ["a", 1],
    {
      ajv: [issue("", "must contain at least 2 valid item(s)", "contains")],
      cfworker: [
        issue(
          "",
          "Array must contain at least 2 items matching schema. Only 1 items were found",
          "minContains",
        ),
        issue("/1", 'Instance type "number" is invalid. Expected "string"', "type"),
      ],
    },
  ],
  [
    "too many items matching contains: reported as contains by ajv, as maxContains by cfworker",
    { contains: { type: "string" }, maxContains: 1 },
    ["a", "b"],
    {
      ajv: [issue("", "must contain at least 1 and no more than 1 valid item(s)", "contains")],
      cfworker: [
        issue(
          "",
          "Array may contain at most 1 items matching schema. 2 items were found",
          "maxContains",
        ),
      ],
    },
  ],
  ...(
    [
      ["email", "a@b"],
      ["email", '"a b"@c.de'],
      ["email", "a@[127.0.0.1]"],
      ["ipv4", "01.2.3.4"],
    ] as const
  ).map(([format, value]): [string, JsonSchema, unknown, Record<AdapterName, Verdict>] => [
    `format ${format}: ${value}, refused by ajv-formats only`,
    { format },
    value,
    { ajv: [issue("", `must match format "${format}"`, "format")], cfworker: "valid" },
  ]),
  [
    "format uuid: the urn:uuid: form, accepted by ajv-formats only",
    { format: "uuid" },
    "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    { ajv: "valid", cfworker: [issue("", 'String does not match format "uuid"', "format")] },
  ],
  ...(
    [
      ["int32", 2 ** 31],
      ["int32", 1.5],
      ["int64", 1.5],
      ["byte", "!!"],
      ["iso-time", "25:00"],
      ["iso-date-time", "x"],
    ] as const
  ).map(([format, value]): [string, JsonSchema, unknown, Record<AdapterName, Verdict>] => [
    `format ${format}, an ajv-formats extension the cfworker library does not know`,
    { format },
    value,
    { ajv: [issue("", `must match format "${format}"`, "format")], cfworker: "valid" },
  ]),
];

describe.each(ADAPTERS)("the %s adapter", (name, make) => {
  const validator = make();

  it.each(SAME)("gives the shared verdict: %s", (_what, schema, input, expected) => {
    const received = verdict(validator, schema, input);
    expect(kind(received)).toEqual(kind(expected));
    // ajv's wording is the reference the expectations are written in.
    if (name === "ajv") expect(received).toEqual(sorted(expected));
  });

  it.each(FORMATS)("checks format %s on %j like the other adapter", (format, value, valid) => {
    expect(kind(verdict(validator, { format }, value))).toEqual(valid ? "valid" : [" format"]);
  });

  it.each(WORDING)("words %s in its own library's terms", (_what, schema, input, expected) => {
    expect(verdict(validator, schema, input)).toEqual(sorted(expected[name]));
  });

  it.each(DIFFERENT)("differs as documented: %s", (_what, schema, input, expected) => {
    expect(verdict(validator, schema, input)).toEqual(sorted(expected[name]));
  });

  it("validates the input as sent and routes it uncopied when the schema declares no default", () => {
    const input = { a: "x" };
    const result = validator.compile(object({ a: { type: "string" } }))(input);
    expect(result.ok && result.value).toBe(input);
  });

  it("never writes to the application's schema, even a frozen one", () => {
    const schema = Object.freeze({
      type: "object",
      properties: Object.freeze({ a: Object.freeze({ $ref: "#/$defs/a" }) }),
      $defs: Object.freeze({ a: Object.freeze({ type: "string" }) }),
    });
    const before = JSON.stringify(schema);
    expect(validator.checkSchema(schema)).toBeUndefined();
    expect(validator.compile(schema)({ a: 1 }).ok).toBe(false);
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(["$ref"]);
  });

  it("throws from compile, the application's bug, when a $ref does not resolve", () => {
    const schema = { $ref: "#/$defs/missing" };
    expect(validator.checkSchema(schema)).toBeUndefined();
    expect(() => validator.compile(schema)).toThrow(/resolve/);
  });
});

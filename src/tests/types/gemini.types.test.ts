import type {
  Content,
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
  Schema,
  Tool,
  Type,
} from "@google/genai";
import { describe, expectTypeOf, it } from "vitest";
import {
  type GeminiContent,
  type GeminiDialect,
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponsePart,
  type GeminiOpenApiFunctionDeclaration,
  type GeminiOpenApiTool,
  type GeminiPart,
  type GeminiResponse,
  type GeminiSchema,
  type GeminiTool,
  type GeminiType,
  gemini,
} from "../../tools/dialects/gemini/dialect.js";
import { igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

type SdkTools = NonNullable<GenerateContentConfig["tools"]>;

/** `GeminiSchema` with its `type` replaced by the SDK's `Type` enum, all the way down. */
type WithSdkType<S> = {
  [K in keyof S]: K extends "type"
    ? Type
    : S[K] extends GeminiSchema | undefined
      ? WithSdkType<S[K]>
      : S[K] extends GeminiSchema[] | undefined
        ? WithSdkType<GeminiSchema>[]
        : S[K] extends Record<string, GeminiSchema> | undefined
          ? Record<string, WithSdkType<GeminiSchema>>
          : S[K];
};

describe("gemini types against @google/genai 2.32.0", () => {
  it("offers JSON-Schema tool defs the SDK accepts as `config.tools` without a cast", () => {
    expectTypeOf<GeminiFunctionDeclaration>().toExtend<FunctionDeclaration>();
    expectTypeOf<GeminiTool>().toExtend<Tool>();
    expectTypeOf<GeminiTool[]>().toExtend<SdkTools>();
    expectTypeOf(gemini.toToolDefs).returns.toEqualTypeOf<GeminiTool[]>();
    expectTypeOf(gemini({ schema: "json" }).toToolDefs).returns.toExtend<SdkTools>();
    const bridge = igniteTools(new Counter(), gemini);
    expectTypeOf(bridge.toToolDefs()).toExtend<Tool[]>();
  });

  it("types OpenAPI mode's schema exactly as the SDK's, except `type`, which no literal can be", () => {
    // The SDK's `Type` is a TypeScript string enum: a literal "OBJECT" is not assignable to it.
    expectTypeOf<"OBJECT">().not.toExtend<Type>();
    expectTypeOf<GeminiOpenApiTool[]>().not.toExtend<SdkTools>();
    // Our literal union is exactly the enum's values, less TYPE_UNSPECIFIED and NULL.
    expectTypeOf<GeminiType>().toEqualTypeOf<`${Exclude<Type, "TYPE_UNSPECIFIED" | "NULL">}`>();
    expectTypeOf<Type>().toExtend<GeminiType | "TYPE_UNSPECIFIED" | "NULL">();
    // Every other field matches: with the enum swapped in, the schema is the SDK's Schema.
    expectTypeOf<WithSdkType<GeminiSchema>>().toExtend<Schema>();
    expectTypeOf<
      Omit<GeminiOpenApiFunctionDeclaration, "parameters">
    >().toExtend<FunctionDeclaration>();
    // So OpenAPI tool defs go to the SDK with `as Tool[]` (a checked assertion, not `unknown`).
    const bridge = igniteTools(new Counter(), gemini({ schema: "openapi" }));
    expectTypeOf(bridge.toToolDefs()).toEqualTypeOf<GeminiOpenApiTool[]>();
    expectTypeOf(bridge.toToolDefs() as Tool[]).toExtend<SdkTools>();
  });

  it("accepts the SDK's GenerateContentResponse instance as a response without a cast", () => {
    expectTypeOf<GenerateContentResponse>().toExtend<GeminiResponse>();
    expectTypeOf<GenerateContentResponse>().toExtend<Parameters<typeof gemini.parseToolCalls>[0]>();
    expectTypeOf<GenerateContentResponse>().toExtend<Parameters<typeof gemini.appendTurn>[1]>();
    const bridge = igniteTools(new Counter(), gemini({ schema: "openapi" }));
    expectTypeOf<GenerateContentResponse>().toExtend<
      Parameters<typeof bridge.handleToolCalls>[0]
    >();
    expectTypeOf<GenerateContentResponse>().toExtend<Parameters<typeof bridge.appendTurn>[1]>();
  });

  it("answers with functionResponse parts the SDK accepts as parts of a turn", () => {
    expectTypeOf<GeminiFunctionResponsePart>().toExtend<Part>();
    expectTypeOf<GeminiFunctionResponsePart>().toExtend<GeminiPart>();
    const bridge = igniteTools(new Counter(), gemini);
    expectTypeOf(bridge.handleToolCalls).returns.resolves.toEqualTypeOf<
      GeminiFunctionResponsePart[]
    >();
  });

  it("appends turns the SDK accepts as `contents`, and takes the SDK's history as it is", () => {
    expectTypeOf<GeminiPart>().toExtend<Part>();
    expectTypeOf<Part>().toExtend<GeminiPart>();
    expectTypeOf<GeminiContent>().toExtend<Content>();
    expectTypeOf<Content>().toExtend<GeminiContent>();
    const bridge = igniteTools(new Counter(), gemini);
    expectTypeOf<Content[]>().toExtend<Parameters<typeof bridge.appendTurn>[0]>();
    expectTypeOf(bridge.appendTurn).returns.toEqualTypeOf<GeminiContent[]>();
    expectTypeOf(bridge.appendTurn).returns.toExtend<Content[]>();
    expectTypeOf<{
      model: string;
      contents: GeminiContent[];
      config: { tools: GeminiTool[] };
    }>().toExtend<GenerateContentParameters>();
  });

  it("is both the default dialect and a factory whose tool defs follow the schema option", () => {
    expectTypeOf(gemini).toExtend<GeminiDialect<GeminiTool[]>>();
    expectTypeOf(gemini()).toEqualTypeOf<GeminiDialect<GeminiTool[]>>();
    expectTypeOf(gemini({ schema: "openapi" })).toEqualTypeOf<GeminiDialect<GeminiOpenApiTool[]>>();
    const mode = "openapi" as "json" | "openapi";
    expectTypeOf(gemini({ schema: mode })).toEqualTypeOf<
      GeminiDialect<GeminiTool[] | GeminiOpenApiTool[]>
    >();
    // @ts-expect-error the only option is `schema`
    gemini({ strict: true });
  });
});

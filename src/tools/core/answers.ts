/**
 * What a person answers to the questions an approval policy asks before a call runs: plain data,
 * beside the call's route (core/types.ts) and the questions themselves (core/approval.ts), which
 * both read it — so it sits apart from either.
 */

/**
 * A person's answer to one question: the values of its form, by field (MCP's elicitation result
 * `content`): strings, numbers, booleans, or a list of strings for a multiple choice.
 */
export type Answer = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** A person's answers, by the key of the question each answers. */
export type Answers = Readonly<Record<string, Answer>>;

import { describe, expect, it } from "vitest";
import { rankingOf, wordsOf } from "../../tools/search/rank.js";
import { shopCommands } from "./catalogue.js";

const shop = rankingOf(
  Object.entries(shopCommands()).map(([name, command]) => ({ name, ...command })),
);
const top = (query: string, limit = 3) => shop(query, limit).map((tool) => tool.name);

describe("the built-in search's ranking, on a shop's 48 commands", () => {
  it("finds the command a person would name, first", () => {
    expect(top("refund an order")[0]).toBe("refundOrder");
    expect(top("where is my parcel")[0]).toBe("trackShipment");
    expect(top("reset password")[0]).toBe("sendPasswordReset");
    expect(top("change price")[0]).toBe("updatePrice");
    expect(top("coupon").sort()).toEqual(["createCoupon", "expireCoupon"]);
  });

  it("reads camelCase and snake_case names as words", () => {
    expect(wordsOf("printShippingLabel")).toEqual(["print", "shipping", "label"]);
    expect(wordsOf("cancel_order")).toEqual(["cancel", "order"]);
    expect(top("cancel order")[0]).toBe("cancel_order");
  });

  it("counts a word that begins a command's word, so ship finds shipping and shipment", () => {
    expect(top("ship", 10)).toEqual(
      expect.arrayContaining(["createShipment", "trackShipment", "printShippingLabel"]),
    );
  });

  it("reads availableWhen, so a gated command is found by what it waits for", () => {
    expect(top("sale running")[0]).toBe("endSale");
  });

  it("answers at most limit commands, and none for words no command has", () => {
    expect(shop("order", 2)).toHaveLength(2);
    expect(shop("spaceship telescope", 5)).toEqual([]);
    expect(shop("", 5)).toEqual([]);
  });
});

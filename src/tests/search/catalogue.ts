/**
 * A realistic catalogue for the built-in search: the back office of a shop, 48 commands in eight
 * areas (orders, refunds, shipping, customers, products, stock, discounts, reports), named and
 * described as an application declares them — some camelCase, some snake_case, a few gated with
 * an `availableWhen`.
 */
import type { AgentComponent, CommandSchema } from "../../tools/index.js";

const AREAS: Record<string, [string, string][]> = {
  orders: [
    ["createOrder", "Create an order for a customer from the items in their cart."],
    ["cancel_order", "Cancel an order that has not shipped yet."],
    ["getOrder", "Look up one order by its number: items, totals, status."],
    ["listOrders", "List a customer's orders, newest first."],
    ["addOrderNote", "Add an internal note to an order."],
    ["changeOrderAddress", "Change the delivery address of an order before it ships."],
  ],
  refunds: [
    ["refundOrder", "Refund an order in full to the original payment method."],
    ["refund_item", "Refund one item of an order."],
    ["issueStoreCredit", "Give the customer store credit instead of a refund."],
    ["listRefunds", "List the refunds issued in a period."],
    ["approveReturn", "Approve a customer's return request so they can send items back."],
    ["rejectReturn", "Reject a return request, with the reason the customer reads."],
  ],
  shipping: [
    ["createShipment", "Book a carrier shipment for an order's parcels."],
    ["trackShipment", "Track where a shipment is now."],
    ["printShippingLabel", "Print the shipping label of a parcel."],
    ["changeCarrier", "Move a shipment to another carrier."],
    ["schedulePickup", "Schedule the carrier's pickup at the warehouse."],
    ["estimateDelivery", "Estimate when an order will be delivered."],
  ],
  customers: [
    ["findCustomer", "Find a customer by name, email or phone."],
    ["createCustomer", "Create a customer account."],
    ["updateCustomerEmail", "Change the email address of a customer."],
    ["mergeCustomers", "Merge two duplicate customer accounts into one."],
    ["blockCustomer", "Block a customer from placing orders (fraud)."],
    ["sendPasswordReset", "Email a customer a link to reset their password."],
  ],
  products: [
    ["createProduct", "Add a product to the catalogue."],
    ["updatePrice", "Change the price of a product."],
    ["archiveProduct", "Remove a product from sale, keeping its history."],
    ["uploadProductImage", "Upload a photo for a product page."],
    ["translateProduct", "Translate a product's title and description into another language."],
    ["listProducts", "List the products in a category."],
  ],
  stock: [
    ["adjustStock", "Correct the stock count of a product at a warehouse."],
    ["transferStock", "Move stock between two warehouses."],
    ["reorderStock", "Order more stock of a product from its supplier."],
    ["stockLevels", "Show the stock of a product at every warehouse."],
    ["countInventory", "Start a full inventory count of a warehouse."],
    ["reserveStock", "Hold stock for an order that is not paid yet."],
  ],
  discounts: [
    ["createCoupon", "Create a coupon code worth a percentage or an amount."],
    ["expireCoupon", "End a coupon before its date."],
    ["startSale", "Put a category on sale for a period."],
    ["endSale", "End a running sale."],
    ["giftCardBalance", "Check the balance of a gift card."],
    ["issueGiftCard", "Issue a gift card to a customer."],
  ],
  reports: [
    ["salesReport", "Revenue and orders per day for a period."],
    ["topProducts", "The best-selling products of a period."],
    ["refundRate", "The share of orders refunded in a period."],
    ["exportOrdersCsv", "Export the orders of a period as a CSV file."],
    ["taxReport", "The sales tax collected, per region, for a period."],
    ["customerLifetimeValue", "What a customer has spent in all."],
  ],
};

/** The commands, with `endSale` and `approveReturn` gated on what is going on. */
export function shopCommands(): Record<string, CommandSchema> {
  const commands: Record<string, CommandSchema> = {};
  for (const entries of Object.values(AREAS)) {
    for (const [name, description] of entries) commands[name] = { description };
  }
  commands.endSale = { ...commands.endSale, gated: true, availableWhen: "a sale is running" };
  commands.approveReturn = {
    ...commands.approveReturn,
    gated: true,
    availableWhen: "a return request is open",
  };
  return commands;
}

/** The shop as a component: every command answers its name; no sale is running. */
export function shop(): { component: AgentComponent<{ ran: string[] }>; ran: string[] } {
  const ran: string[] = [];
  const commands = shopCommands();
  return {
    ran,
    component: {
      getSchema: () => ({ commands }),
      canExecute: (command) => command !== "endSale",
      execute: (command) => {
        ran.push(command);
        return { state: { ran: [...ran] }, events: [] };
      },
    },
  };
}

// The Shopify fake's store: records seeded deterministically in the shapes the REST Admin API reference shows
// (https://shopify.dev/docs/api/admin-rest/latest/resources/<resource>, "The <Resource> resource" example), a
// subset of each resource's members. Ids are numeric as Shopify's (unique across the system); times carry the
// shop's offset (-05:00), as Shopify writes them. Every table is sorted by id, Shopify's list order.

export type Row = Record<string, unknown> & { id?: number };

export interface DatasetOptions {
  /** products (each with 2 variants, 2 images and their inventory items), default 8 */
  products?: number;
  /** orders (each with 2 fulfillments, 2 refunds, 2 transactions and 1 fulfillment order), default 8 */
  orders?: number;
  /** customers (each with 3 addresses), default 8 */
  customers?: number;
  /** metafields on each owner, default 4 */
  metafieldsPerOwner?: number;
}

const T0 = Date.parse('2026-01-05T15:00:00Z');
const HOUR = 3_600_000;

/** A time as Shopify writes it: ISO 8601 at the shop's offset, to the second. */
export function shopTime(ms: number): string {
  const local = new Date(ms - 5 * HOUR).toISOString().slice(0, 19);
  return `${local}-05:00`;
}

const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;

export class Dataset {
  readonly shop: Row;
  readonly products: Row[] = [];
  readonly variants: Row[] = [];
  readonly images: Row[] = [];
  readonly inventoryItems: Row[] = [];
  readonly locations: Row[] = [];
  readonly inventoryLevels: Row[] = [];
  readonly customers: Row[] = [];
  readonly addresses: Row[] = [];
  readonly orders: Row[] = [];
  readonly fulfillments: Row[] = [];
  readonly fulfillmentOrders: Row[] = [];
  readonly refunds: Row[] = [];
  readonly transactions: Row[] = [];
  readonly tenderTransactions: Row[] = [];
  readonly draftOrders: Row[] = [];
  readonly checkouts: Row[] = [];
  readonly customCollections: Row[] = [];
  readonly smartCollections: Row[] = [];
  readonly collects: Row[] = [];
  readonly priceRules: Row[] = [];
  readonly discountCodes: Row[] = [];
  readonly countries: Row[] = [];
  readonly metafields: Row[] = [];
  private clock = T0;
  private nextId = 1;

  constructor(opts: DatasetOptions = {}) {
    const perOwner = opts.metafieldsPerOwner ?? 4;
    this.shop = {
      id: 548380009,
      name: 'Ces Demo Goods',
      email: 'owner@ces-demo.example',
      domain: 'shop.ces-demo.example',
      myshopify_domain: 'ces-demo.myshopify.com',
      currency: 'USD',
      iana_timezone: 'America/New_York',
      plan_name: 'basic',
      country_code: 'US',
      created_at: shopTime(T0 - 400 * 24 * HOUR),
      updated_at: shopTime(T0),
    };
    const mf = (owner_resource: string, owner_id: number) => {
      for (let k = 0; k < perOwner; k++)
        this.metafields.push(
          this.stamp({
            id: this.id(1_001_000_000),
            namespace: k % 2 === 0 ? 'custom' : 'ces',
            key: `field_${k}`,
            value: `value ${k} of ${owner_resource} ${owner_id}`,
            type: 'single_line_text_field',
            description: null,
            owner_id,
            owner_resource,
            admin_graphql_api_id: '',
          }),
        );
    };
    mf('shop', this.shop.id as number);

    for (let i = 0; i < 3; i++) {
      const id = this.id(655_441_000);
      this.locations.push(
        this.stamp({
          id,
          name: `Warehouse ${i + 1}`,
          address1: `${100 + i} Main Street`,
          city: ['Ottawa', 'Montreal', 'Toronto'][i],
          province_code: ['ON', 'QC', 'ON'][i],
          country_code: 'CA',
          active: true,
          legacy: false,
          admin_graphql_api_id: gid('Location', id),
        }),
      );
      mf('location', id);
    }
    for (const [code, name, tax] of [
      ['CA', 'Canada', 0.05],
      ['US', 'United States', 0],
      ['*', 'Rest of World', 0],
    ] as const) {
      const id = this.id(879_921_000);
      this.countries.push({
        id,
        code,
        name,
        tax,
        tax_name: code === 'CA' ? 'GST' : 'Tax',
        provinces:
          code === 'CA' ? [{ id: id + 1, country_id: id, code: 'ON', name: 'Ontario', tax: 0.08 }] : [],
      });
    }

    for (let i = 0; i < (opts.products ?? 8); i++) {
      const id = this.id(632_910_000);
      const variantIds: number[] = [];
      const product = this.stamp({
        id,
        title: `Widget ${i + 1}`,
        body_html: `<p>The number ${i + 1} widget.</p>`,
        vendor: i % 2 === 0 ? 'Acme' : 'Globex',
        product_type: i % 3 === 0 ? 'Gadgets' : 'Widgets',
        handle: `widget-${i + 1}`,
        status: i % 4 === 3 ? 'draft' : 'active',
        tags: 'demo',
        published_at: shopTime(this.clock),
        admin_graphql_api_id: gid('Product', id),
      });
      this.products.push(product);
      mf('product', id);
      for (let v = 0; v < 2; v++) {
        const vid = this.id(808_950_000);
        const itemId = this.id(39_072_000);
        variantIds.push(vid);
        this.variants.push(
          this.stamp({
            id: vid,
            product_id: id,
            title: v === 0 ? 'Small' : 'Large',
            price: `${10 + i}.00`,
            sku: `W${i + 1}-${v === 0 ? 'S' : 'L'}`,
            position: v + 1,
            barcode: `12345${i}${v}`,
            inventory_item_id: itemId,
            inventory_quantity: 10 * (v + 1),
            admin_graphql_api_id: gid('ProductVariant', vid),
          }),
        );
        mf('variant', vid);
        this.inventoryItems.push(
          this.stamp({
            id: itemId,
            sku: `W${i + 1}-${v === 0 ? 'S' : 'L'}`,
            cost: '4.00',
            tracked: true,
            requires_shipping: true,
            country_code_of_origin: 'CA',
            admin_graphql_api_id: gid('InventoryItem', itemId),
          }),
        );
        for (const loc of this.locations)
          this.inventoryLevels.push({
            inventory_item_id: itemId,
            location_id: loc.id,
            available: 5 + v,
            updated_at: shopTime(this.tick()),
            admin_graphql_api_id: `gid://shopify/InventoryLevel/${loc.id}?inventory_item_id=${itemId}`,
          });
      }
      for (let m = 0; m < 2; m++) {
        const iid = this.id(850_703_000);
        this.images.push(
          this.stamp({
            id: iid,
            product_id: id,
            position: m + 1,
            alt: `Widget ${i + 1}, view ${m + 1}`,
            width: 800,
            height: 600,
            src: `https://cdn.shopify.com/s/files/1/0005/4838/0009/products/widget-${i + 1}-${m + 1}.jpg`,
            variant_ids: m === 0 ? variantIds : [],
            admin_graphql_api_id: gid('ProductImage', iid),
          }),
        );
        mf('product_image', iid);
      }
      product.variants = this.variants.filter((v) => v.product_id === id);
      product.images = this.images.filter((m) => m.product_id === id);
    }

    for (const kind of ['custom', 'smart'] as const)
      for (let i = 0; i < 5; i++) {
        const id = this.id(kind === 'custom' ? 841_564_000 : 482_865_000);
        const collection = this.stamp({
          id,
          title: `${kind === 'custom' ? 'Picked' : 'Ruled'} ${i + 1}`,
          handle: `${kind}-${i + 1}`,
          body_html: `<p>${kind} collection ${i + 1}</p>`,
          sort_order: 'manual',
          published_scope: 'web',
          published_at: shopTime(this.clock),
          admin_graphql_api_id: gid('Collection', id),
          ...(kind === 'smart'
            ? { rules: [{ column: 'vendor', relation: 'equals', condition: 'Acme' }], disjunctive: false }
            : {}),
        });
        (kind === 'custom' ? this.customCollections : this.smartCollections).push(collection);
        if (kind === 'smart') mf('collection', id);
        else
          for (const product of this.products.slice(i, i + 4))
            this.collects.push(
              this.stamp({
                id: this.id(455_204_000),
                collection_id: id,
                product_id: product.id,
                position: 1,
                sort_value: '0000000001',
              }),
            );
      }

    for (let i = 0; i < (opts.customers ?? 8); i++) {
      const id = this.id(207_119_000);
      const customer = this.stamp({
        id,
        email: `customer${i + 1}@ces-demo.example`,
        first_name: ['Bob', 'Ada', 'Lin', 'Sam'][i % 4],
        last_name: `Norman${i + 1}`,
        phone: `+1613555${String(1000 + i)}`,
        state: i % 3 === 0 ? 'enabled' : 'disabled',
        verified_email: true,
        tags: i % 2 === 0 ? 'vip' : '',
        note: i % 2 === 0 ? 'Prefers email' : null,
        currency: 'USD',
        orders_count: 1,
        admin_graphql_api_id: gid('Customer', id),
      });
      this.customers.push(customer);
      mf('customer', id);
      for (let a = 0; a < 3; a++)
        this.addresses.push({
          id: this.id(207_119_500),
          customer_id: id,
          address1: `${a + 1} Elm Street`,
          city: 'Ottawa',
          province_code: 'ON',
          country_code: 'CA',
          zip: 'K2P 1L4',
          default: a === 0,
        });
    }

    for (let i = 0; i < 4; i++) {
      const id = this.id(507_328_000);
      this.priceRules.push(
        this.stamp({
          id,
          title: `SUMMER${i + 1}`,
          value_type: i % 2 === 0 ? 'percentage' : 'fixed_amount',
          value: i % 2 === 0 ? '-10.0' : '-5.0',
          target_type: 'line_item',
          target_selection: 'all',
          allocation_method: 'across',
          customer_selection: 'all',
          starts_at: shopTime(T0),
          ends_at: null,
          admin_graphql_api_id: gid('PriceRule', id),
        }),
      );
      for (let c = 0; c < 4; c++)
        this.discountCodes.push(
          this.stamp({
            id: this.id(507_328_500),
            price_rule_id: id,
            code: `SUMMER${i + 1}-${c + 1}`,
            usage_count: c,
          }),
        );
    }

    for (let i = 0; i < (opts.orders ?? 8); i++) {
      const id = this.id(450_789_000);
      const customer = this.customers[i % this.customers.length];
      const order = this.stamp({
        id,
        name: `#${1001 + i}`,
        email: customer?.email ?? null,
        financial_status: i % 3 === 0 ? 'paid' : 'pending',
        fulfillment_status: i % 2 === 0 ? 'fulfilled' : null,
        total_price: `${20 + i}.00`,
        currency: 'USD',
        closed_at: i % 4 === 1 ? shopTime(this.clock) : null,
        cancelled_at: i % 4 === 2 ? shopTime(this.clock) : null,
        customer: customer ? { id: customer.id, email: customer.email } : null,
        admin_graphql_api_id: gid('Order', id),
      });
      this.orders.push(order);
      mf('order', id);
      const location = this.locations[i % this.locations.length];
      for (let f = 0; f < 2; f++)
        this.fulfillments.push(
          this.stamp({
            id: this.id(255_858_000),
            order_id: id,
            status: 'success',
            shipment_status: f === 0 ? 'delivered' : 'in_transit',
            tracking_company: 'UPS',
            tracking_number: `1Z${id}${f}`,
            location_id: location?.id,
            admin_graphql_api_id: '',
          }),
        );
      this.fulfillmentOrders.push(
        this.stamp({
          id: this.id(1_046_000_000),
          order_id: id,
          shop_id: this.shop.id,
          assigned_location_id: location?.id,
          status: 'open',
          request_status: 'unsubmitted',
        }),
      );
      for (let r = 0; r < 2; r++)
        this.refunds.push(
          this.stamp({
            id: this.id(509_562_000),
            order_id: id,
            note: r === 0 ? 'Damaged in transit' : null,
            user_id: 548380009,
            restock: false,
            processed_at: shopTime(this.clock),
            refund_line_items: [],
            transactions: [],
          }),
        );
      for (let t = 0; t < 2; t++) {
        const tid = this.id(389_404_000);
        const stamped = this.stamp({
          id: tid,
          order_id: id,
          kind: t === 0 ? 'authorization' : 'capture',
          status: 'success',
          amount: `${20 + i}.00`,
          currency: 'USD',
          gateway: 'bogus',
          test: true,
        });
        stamped.processed_at = stamped.created_at;
        delete stamped.updated_at;
        this.transactions.push(stamped);
        this.tenderTransactions.push({
          id: this.id(999_225_000),
          order_id: id,
          amount: `${20 + i}.00`,
          currency: 'USD',
          user_id: null,
          test: true,
          processed_at: shopTime(this.tick()),
          remote_reference: `ch_${tid}`,
          payment_method: 'credit_card',
          payment_details: { credit_card_number: '•••• •••• •••• 4242', credit_card_company: 'Visa' },
        });
      }
      const draftId = this.id(994_118_000);
      this.draftOrders.push(
        this.stamp({
          id: draftId,
          name: `#D${i + 1}`,
          email: customer?.email ?? null,
          status: i % 3 === 0 ? 'completed' : 'open',
          order_id: i % 3 === 0 ? id : null,
          total_price: '15.00',
          currency: 'USD',
          note: 'Phone order',
          customer: customer ? { id: customer.id } : null,
          admin_graphql_api_id: gid('DraftOrder', draftId),
        }),
      );
      mf('draft_order', draftId);
      this.checkouts.push(
        this.stamp({
          id: this.id(450_789_500),
          token: `tok${id}`,
          email: customer?.email ?? null,
          abandoned_checkout_url: `https://ces-demo.myshopify.com/checkouts/${id}/recover`,
          total_price: '30.00',
          currency: 'USD',
          completed_at: i % 4 === 0 ? shopTime(this.clock) : null,
          customer: customer ? { id: customer.id } : null,
        }),
      );
    }
    for (const location of this.locations)
      location.admin_graphql_api_id = gid('Location', location.id as number);
    for (const m of this.metafields) m.admin_graphql_api_id = gid('Metafield', m.id as number);
  }

  /** The owner's metafields (`owner_resource` as Shopify names it: product, variant, collection, shop, ...). */
  metafieldsOf(owner_resource: string, owner_id: number): Row[] {
    return this.metafields.filter((m) => m.owner_resource === owner_resource && m.owner_id === owner_id);
  }

  /** Changes a record as the store would: the given members, and updated_at now (after every other time). */
  update(row: Row, changes: Record<string, unknown>): Row {
    Object.assign(row, changes, { updated_at: shopTime(this.tick()) });
    return row;
  }

  /** The newest time the dataset wrote. */
  now(): number {
    return this.clock;
  }

  private id(base: number): number {
    return base + this.nextId++;
  }

  private tick(): number {
    this.clock += HOUR;
    return this.clock;
  }

  private stamp(row: Row): Row {
    const created = this.tick();
    return { ...row, created_at: shopTime(created), updated_at: shopTime(created) };
  }
}

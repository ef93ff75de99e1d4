import { sql, type Kysely } from 'kysely';

// Texts the server makes are rendered in the reader's language when read (issue 14, item 3). A payment's, an
// order's and an invoice's description get `description_text`: a key of the notifications locale namespace and
// its params (a purchase keeps its country's and tariff's names in every language), rendered by
// modules/notifications/server-texts.ts. `description` stays: the text in the buyer's language at the time, shown
// when there is no description_text (a PayPal top-up's own words, rows this migration cannot read), and what the
// console searches. Invoice lines get an optional `text` the same way, in the lines jsonb; old lines keep theirs.
// Old rows are filled where their description says what they were: a top-up, a renewal ('Renewal for …'), a purchase
// of a known tariff; and the notifications naming such a description get it as their params' description.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table payments add column description_text jsonb;
    alter table payment_orders add column description_text jsonb;
    alter table invoices add column description_text jsonb;
  `.execute(db);
  await fillServerTexts(db);
}

/** The fill of old rows, on its own so a test can run it on rows written the old way. Idempotent. */
export async function fillServerTexts(db: Kysely<unknown>): Promise<void> {
  await sql`
    update payments set description_text = '{"key":"topup_description"}'::jsonb
      where kind = 'topup' and description = 'Account top-up';
    update payments set description_text = jsonb_build_object('key', 'renewal_description',
        'params', jsonb_build_object('names', substr(description, length('Renewal for ') + 1)))
      where description like 'Renewal for %';
    update payments p set description_text = jsonb_build_object('key', 'purchase_description',
        'params', jsonb_build_object('country', c.names, 'tariff', t.names, 'count', p.modem_count))
      from tariffs t join countries c on c.id = t.country_id
      where p.kind = 'purchase' and p.tariff_id = t.id and p.description like '4G %';

    update payment_orders set description_text = '{"key":"topup_description"}'::jsonb
      where kind = 'topup' and description = 'Account top-up';
    update payment_orders set description_text = jsonb_build_object('key', 'renewal_description',
        'params', jsonb_build_object('names', substr(description, length('Renewal for ') + 1)))
      where kind = 'renewal' and description like 'Renewal for %';
    update payment_orders o set description_text = jsonb_build_object('key', 'purchase_description',
        'params', jsonb_build_object('country', c.names, 'tariff', t.names, 'count', (o.details->>'modemCount')::int))
      from tariffs t join countries c on c.id = t.country_id
      where o.kind = 'purchase' and t.id::text = o.details->>'tariff_id' and o.details->>'modemCount' is not null
        and o.description like '4G %';

    update invoices i set description_text = p.description_text
      from payments p where p.id = i.payment_id and p.description_text is not null;

    update notifications n set params = jsonb_set(n.params, '{description}', (
        select p.description_text from payments p
        where p.user_id = n.user_id and p.description = n.params->>'description' and p.description_text is not null
        order by p.created_at desc limit 1))
      where n.text_key in ('purchase_completed', 'payment_received', 'payment_unfulfilled')
        and jsonb_typeof(n.params->'description') = 'string'
        and exists (select 1 from payments p where p.user_id = n.user_id and p.description = n.params->>'description'
          and p.description_text is not null);
  `.execute(db);
}

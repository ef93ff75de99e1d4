import { sql, type Kysely } from 'kysely';

// Issue 27, item 12: a port's default name ("Proxy 3") in the reader's language ("Прокси 3", "代理 3").
// `default_number` marks a name the customer has not chosen: set, the name is rendered per reader from the number
// (notifications/port-name.ts) and `name` keeps the English text for readers that have no language (the console,
// webhooks); null, `name` is the customer's own and is shown as typed. A rename clears it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ports add column default_number integer`.execute(db);
  // A name written without its mark is the customer's own, whichever path writes it (the API's rename clears the
  // mark itself; an operator's or a script's update of the name must not leave it shown as "Proxy N").
  await sql`
    create function ports_name_chosen() returns trigger language plpgsql as $$
    begin
      if new.name is distinct from old.name and new.default_number is not distinct from old.default_number then
        new.default_number := null;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger ports_name_chosen before update of name on ports for each row execute function ports_name_chosen()`.execute(db);
  await markDefaultPortNames(db);
}

/**
 * Ports bought before this carry the English default as their name: those are marked from it. (A customer who typed
 * exactly "Proxy 3" reads "Прокси 3" in Russian too; nobody can tell it from the default, so nothing is lost.)
 */
export async function markDefaultPortNames(db: Kysely<unknown>): Promise<void> {
  await sql`update ports set default_number = substring(name from '^Proxy ([0-9]{1,9})$')::integer
            where default_number is null and name ~ '^Proxy [0-9]{1,9}$'`.execute(db);
}

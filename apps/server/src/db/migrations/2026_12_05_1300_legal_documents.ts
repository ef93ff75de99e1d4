import { sql, type Kysely } from 'kysely';

// The Terms of Service and the Refund Policy (issue 14, item 8): one Markdown text per document and language,
// edited by operators in the console. Every save is a new row (version 1, 2, … per document and language, with its
// time and author); the public page shows the latest. `legal_acceptances` records, per customer, the version of
// each document current in their language when they signed up. A fresh install starts with version 1 of each text,
// written by nobody (created_by null): the defaults below, for the operator to adapt.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table legal_documents (
      id bigserial primary key,
      kind text not null check (kind in ('terms', 'refund-policy')),
      language text not null check (language in ('en', 'ru', 'cn')),
      version integer not null check (version > 0),
      body text not null,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      unique (kind, language, version)
    );
    create table legal_acceptances (
      user_id uuid not null references users(id) on delete cascade,
      kind text not null,
      language text not null,
      version integer not null,
      accepted_at timestamptz not null default now(),
      primary key (user_id, kind),
      foreign key (kind, language, version) references legal_documents (kind, language, version)
    );
  `.execute(db);
  for (const [kind, texts] of Object.entries(DEFAULTS)) {
    for (const [language, body] of Object.entries(texts)) {
      await sql`insert into legal_documents (kind, language, version, body) values (${kind}, ${language}, 1, ${body})`.execute(db);
    }
  }
}

const DEFAULTS: Record<'terms' | 'refund-policy', Record<'en' | 'ru' | 'cn', string>> = {
  terms: {
    en: `These terms govern your use of Cellport: the dashboard, the API and the mobile proxy ports you rent through them. By creating an account you accept them.

## 1. The service
We rent you access to 4G mobile proxy ports for the period you pay for. A port's IP address belongs to a mobile carrier and changes when the port rotates; we do not promise any particular address, speed or carrier coverage.

## 2. Your account
- Give true details when you sign up and keep your e-mail address current: we send receipts and notices there.
- Keep your password, API keys and rotation links secret. You are responsible for everything done with them.
- One person or company per account. We may close accounts opened to get around a suspension.

## 3. Acceptable use
You must not use the ports for anything unlawful, and in particular not for:
- sending spam or bulk unsolicited messages;
- fraud, phishing, carding or identity theft;
- attacks on other systems: scanning, brute force, denial of service;
- distributing malware or content that is illegal where you or the target are.

We may suspend a port or an account that breaks these rules, at once and without refund, and we cooperate with lawful requests from the authorities.

## 4. Payment and renewal
Prices are shown before you pay. A port runs for the period you bought and renews only if you renew it (or turn on automatic renewal). An unpaid port is released when its period ends. Refunds follow our [Refund Policy](refund-policy).

## 5. Availability
We work to keep every port online, and replace or credit ports that fail on our side. Networks fail from time to time; we are not liable for losses caused by an outage beyond the amount you paid for the affected period.

## 6. Changes
We may change these terms. The version you accepted is recorded with your account; the current version and its date are always on this page. Material changes are announced in the dashboard before they apply.

## 7. Contact
Questions about these terms: write to the support address shown in your dashboard.`,
    ru: `Эти условия регулируют использование Cellport: личного кабинета, API и мобильных прокси-портов, которые вы через них арендуете. Создавая аккаунт, вы их принимаете.

## 1. Услуга
Мы предоставляем доступ к мобильным 4G-прокси на оплаченный вами срок. IP-адрес порта принадлежит мобильному оператору и меняется при ротации; мы не гарантируем конкретный адрес, скорость или покрытие оператора.

## 2. Ваш аккаунт
- Указывайте при регистрации достоверные данные и следите за актуальностью e-mail: на него приходят чеки и уведомления.
- Храните пароль, API-ключи и ссылки ротации в секрете. Вы отвечаете за всё, что с ними сделано.
- Один человек или компания — один аккаунт. Аккаунты, созданные в обход блокировки, могут быть закрыты.

## 3. Допустимое использование
Запрещено использовать порты для противоправных действий, в частности для:
- рассылки спама и массовых нежелательных сообщений;
- мошенничества, фишинга, кардинга и кражи личных данных;
- атак на чужие системы: сканирования, подбора паролей, DoS-атак;
- распространения вредоносных программ или контента, незаконного в вашей стране или стране получателя.

Мы вправе немедленно и без возврата средств заблокировать порт или аккаунт, нарушающий эти правила, и выполняем законные запросы государственных органов.

## 4. Оплата и продление
Цены показываются до оплаты. Порт работает оплаченный срок и продлевается, только если вы его продлите (или включите автопродление). Неоплаченный порт освобождается по окончании срока. Возвраты производятся по нашей [политике возврата](refund-policy).

## 5. Доступность
Мы стремимся держать все порты в сети и заменяем порты, отказавшие по нашей вине, или возмещаем их стоимость. Сети иногда дают сбои; наша ответственность за убытки от перебоя ограничена суммой, уплаченной за затронутый период.

## 6. Изменения
Мы можем менять эти условия. Принятая вами версия сохраняется в вашем аккаунте; действующая версия и её дата всегда на этой странице. О существенных изменениях мы сообщаем в личном кабинете до их вступления в силу.

## 7. Связь
Вопросы по условиям направляйте на адрес поддержки, указанный в личном кабинете.`,
    cn: `本条款适用于您对 Cellport 的使用，包括控制台、API 以及您通过它们租用的移动代理端口。创建账户即表示您接受本条款。

## 1. 服务
我们在您付费的期限内向您出租 4G 移动代理端口的使用权。端口的 IP 地址属于移动运营商，并在轮换时变化；我们不承诺任何特定的地址、速度或运营商覆盖。

## 2. 您的账户
- 注册时请提供真实信息，并保持电子邮箱有效：收据和通知都会发送到该邮箱。
- 请妥善保管密码、API 密钥和轮换链接。使用它们进行的一切操作均由您负责。
- 每个个人或公司仅限一个账户。为规避封禁而开设的账户可能被关闭。

## 3. 合理使用
您不得将端口用于任何违法用途，尤其不得用于：
- 发送垃圾邮件或大量未经请求的信息；
- 欺诈、网络钓鱼、盗刷银行卡或盗用身份；
- 攻击其他系统：扫描、暴力破解、拒绝服务攻击；
- 传播恶意软件，或在您所在地或目标所在地违法的内容。

对于违反上述规则的端口或账户，我们可立即暂停且不予退款，并会配合主管机关的合法要求。

## 4. 付款与续费
价格在付款前显示。端口在您购买的期限内运行，只有在您续费（或开启自动续费）时才会延续。未付费的端口在期限结束时释放。退款按照我们的[退款政策](refund-policy)办理。

## 5. 可用性
我们努力保持每个端口在线，并对因我方原因失效的端口进行更换或补偿。网络偶尔会出现故障；对于中断造成的损失，我们的责任以您为受影响期间支付的金额为限。

## 6. 变更
我们可能修改本条款。您所接受的版本会记录在您的账户中；当前版本及其日期始终显示在本页面。重大变更会在生效前于控制台中公告。

## 7. 联系我们
如对本条款有疑问，请发送邮件至控制台中显示的客服地址。`,
  },
  'refund-policy': {
    en: `We want you to pay only for proxies that work. This policy says when you get your money back and how.

## Account balance
Money you add to your balance can be spent on any port. Unspent balance is refunded on request to the method it came from, less any fee the payment provider keeps, within 30 days of the top-up. Cryptocurrency top-ups are refunded in the same currency at the amount received.

## Ports
- **A port that does not work.** If a port you bought is unusable because of a fault on our side and we cannot fix or replace it within 24 hours, you get the unused days back to your balance, or to your payment method if you ask within 7 days.
- **Changed your mind.** Within 24 hours of buying a port and before it carried more than 100 MB of traffic, you may cancel it for a full refund to your balance.
- **After that,** a period you have started is not refunded.

## Not refunded
- Ports suspended for breaking the [Terms of Service](terms).
- Time a port was offline because of the mobile network or maintenance announced in advance, unless it exceeds 24 hours in a row.

## How to ask
Write to support from the e-mail address of your account with the port or payment concerned. We answer within 2 business days. Refunds to a card or PayPal usually arrive within 5–10 business days, depending on your bank.`,
    ru: `Мы хотим, чтобы вы платили только за работающие прокси. Здесь описано, когда и как вы можете вернуть деньги.

## Баланс аккаунта
Средства на балансе можно потратить на любой порт. Неизрасходованный остаток возвращается по запросу тем же способом, которым был пополнен, за вычетом комиссии платёжной системы, в течение 30 дней с даты пополнения. Пополнения в криптовалюте возвращаются в той же валюте в полученной сумме.

## Порты
- **Порт не работает.** Если купленный порт непригоден из-за сбоя на нашей стороне и мы не можем исправить или заменить его в течение 24 часов, неиспользованные дни возвращаются на баланс, а по запросу в течение 7 дней — на ваш способ оплаты.
- **Передумали.** В течение 24 часов после покупки порта, если через него прошло не более 100 МБ трафика, вы можете отменить покупку с полным возвратом на баланс.
- **Позже** начатый период не возвращается.

## Не возвращается
- Порты, заблокированные за нарушение [условий использования](terms).
- Время, когда порт был недоступен из-за мобильной сети или заранее объявленных работ, если перерыв не превысил 24 часа подряд.

## Как запросить возврат
Напишите в поддержку с e-mail вашего аккаунта, указав порт или платёж. Мы отвечаем в течение 2 рабочих дней. Возврат на карту или PayPal обычно приходит за 5–10 рабочих дней в зависимости от банка.`,
    cn: `我们希望您只为能正常工作的代理付费。本政策说明何时以及如何退款。

## 账户余额
充值到余额的资金可用于购买任何端口。未使用的余额可在充值后 30 天内申请退回原支付方式，扣除支付服务商收取的手续费。加密货币充值按实际收到的金额以同一币种退回。

## 端口
- **端口无法使用。** 如果您购买的端口因我方故障无法使用，且我们无法在 24 小时内修复或更换，未使用的天数将退回您的余额；如您在 7 天内申请，也可退回原支付方式。
- **改变主意。** 购买端口后 24 小时内，且流量不超过 100 MB，您可以取消购买并全额退回余额。
- **超过上述期限后，** 已开始的计费周期不予退款。

## 不予退款的情况
- 因违反[服务条款](terms)而被暂停的端口。
- 因移动网络或提前公告的维护导致端口离线的时间，连续不超过 24 小时的。

## 如何申请
请使用账户邮箱联系客服，并注明相关端口或付款。我们会在 2 个工作日内答复。退回银行卡或 PayPal 的款项通常在 5–10 个工作日内到账，具体取决于您的银行。`,
  },
};

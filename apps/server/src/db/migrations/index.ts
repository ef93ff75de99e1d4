import type { Migration } from 'kysely';
import * as accounts from './2026_11_22_0001_accounts.js';
import * as captcha from './2026_11_22_0100_captcha.js';
import * as catalogPortsLedger from './2026_11_23_0300_catalog_ports_ledger.js';
import * as freeStockIndex from './2026_11_23_0301_free_stock_index.js';
import * as liveDashboard from './2026_11_24_0500_live_dashboard.js';
import * as admin from './2026_11_26_0700_admin.js';
import * as payments from './2026_11_27_0800_payments.js';
import * as intervalRotation from './2026_11_28_1700_interval_rotation.js';
import * as invoiceNumbersAfterCommit from './2026_11_29_0900_invoice_numbers_after_commit.js';
import * as portsListChanges from './2026_11_30_1000_ports_list_changes.js';
import * as hostAgent from './2026_12_01_1100_host_agent.js';
import * as hostsQuietHeartbeats from './2026_12_01_1300_hosts_quiet_heartbeats.js';
import * as hostModemReports from './2026_12_02_0900_host_modem_reports.js';
import * as webhooks from './2026_12_03_0900_webhooks.js';
import * as modemHealth from './2026_12_04_1000_modem_health.js';
import * as serverTexts from './2026_12_05_1000_server_texts.js';
import * as legalDocuments from './2026_12_05_1300_legal_documents.js';
import * as portReplacement from './2026_12_05_1500_port_replacement.js';
import * as scaleIndexes from './2026_12_05_2300_scale_indexes.js';
import * as telegram from './2026_12_06_0100_telegram.js';
import * as portTags from './2026_12_07_0100_port_tags.js';
import * as overviewCounts from './2026_12_07_0200_overview_counts.js';
import * as gateways from './2026_12_08_0100_gateways.js';
import * as portLimits from './2026_12_08_0200_port_limits.js';
import * as supportTickets from './2026_12_09_0100_support_tickets.js';
import * as supportAssigned from './2026_12_09_0200_support_assigned.js';
import * as apiKeyScopes from './2026_12_10_0300_api_key_scopes.js';
import * as captchaPasses from './2026_12_10_0500_captcha_passes.js';
import * as ledgerWholeCents from './2026_12_10_0600_ledger_whole_cents.js';
import * as portHistory from './2026_12_10_0700_port_history.js';
import * as portAccessRules from './2026_12_10_0800_port_access_rules.js';
import * as modemInsertAnnounced from './2026_12_10_0900_modem_insert_announced.js';
import * as operatorAlerts from './2026_12_10_1000_operator_alerts.js';
import * as cardSubscriptionState from './2026_12_11_0100_card_subscription_state.js';
import * as recoveryCodes from './2026_12_11_0200_recovery_codes.js';
import * as invoicesAndReceipts from './2026_12_11_0210_invoices_and_receipts.js';
import * as modemQuality from './2026_12_11_0300_modem_quality.js';
import * as tariffTrialsDiscounts from './2026_12_11_0400_tariff_trials_discounts.js';
import * as fingerprintPresets from './2026_12_11_0700_fingerprint_presets.js';
import * as jobKindNames from './2026_12_11_0800_job_kind_names.js';
import * as sandboxPaymentMethods from './2026_12_12_1610_sandbox_payment_methods.js';
import * as jobDoneBy from './2026_12_12_1700_job_done_by.js';
import * as portsOwnListeningNumbers from './2026_12_12_1710_ports_own_listening_numbers.js';
import * as hostServedStateVersion from './2026_12_12_1720_host_served_state_version.js';
import * as regionNames from './2026_12_12_1830_region_names.js';
import * as defaultPortNames from './2026_12_12_1831_default_port_names.js';
import * as portNumbersCheckByNumber from './2026_12_12_1870_port_numbers_check_by_number.js';
import * as portNumbersLookups from './2026_12_13_0600_port_numbers_lookups.js';
import * as portNumbersCheckPlannedPerCall from './2026_12_13_0601_port_numbers_check_planned_per_call.js';
import * as hostServedPorts from './2026_12_13_0610_host_served_ports.js';
import * as portsWithWhitelist from './2026_12_13_0800_ports_with_whitelist.js';
import * as mailOutboxNotificationDelivery from './2026_12_13_0810_mail_outbox_notification_delivery.js';

// Forward-only, in name order. Add a new file and one line here; never edit a migration that has landed.
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_accounts': accounts,
  '2026_11_22_0100_captcha': captcha,
  '2026_11_23_0300_catalog_ports_ledger': catalogPortsLedger,
  '2026_11_23_0301_free_stock_index': freeStockIndex,
  '2026_11_24_0500_live_dashboard': liveDashboard,
  '2026_11_26_0700_admin': admin,
  '2026_11_27_0800_payments': payments,
  '2026_11_28_1700_interval_rotation': intervalRotation,
  '2026_11_29_0900_invoice_numbers_after_commit': invoiceNumbersAfterCommit,
  '2026_11_30_1000_ports_list_changes': portsListChanges,
  '2026_12_01_1100_host_agent': hostAgent,
  '2026_12_01_1300_hosts_quiet_heartbeats': hostsQuietHeartbeats,
  '2026_12_02_0900_host_modem_reports': hostModemReports,
  '2026_12_03_0900_webhooks': webhooks,
  '2026_12_04_1000_modem_health': modemHealth,
  '2026_12_05_1000_server_texts': serverTexts,
  '2026_12_05_1300_legal_documents': legalDocuments,
  '2026_12_05_1500_port_replacement': portReplacement,
  '2026_12_05_2300_scale_indexes': scaleIndexes,
  '2026_12_06_0100_telegram': telegram,
  '2026_12_07_0100_port_tags': portTags,
  '2026_12_07_0200_overview_counts': overviewCounts,
  '2026_12_08_0100_gateways': gateways,
  '2026_12_08_0200_port_limits': portLimits,
  '2026_12_09_0100_support_tickets': supportTickets,
  '2026_12_09_0200_support_assigned': supportAssigned,
  '2026_12_10_0300_api_key_scopes': apiKeyScopes,
  '2026_12_10_0500_captcha_passes': captchaPasses,
  '2026_12_10_0600_ledger_whole_cents': ledgerWholeCents,
  '2026_12_10_0700_port_history': portHistory,
  '2026_12_10_0800_port_access_rules': portAccessRules,
  '2026_12_10_0900_modem_insert_announced': modemInsertAnnounced,
  '2026_12_10_1000_operator_alerts': operatorAlerts,
  '2026_12_11_0100_card_subscription_state': cardSubscriptionState,
  '2026_12_11_0200_recovery_codes': recoveryCodes,
  '2026_12_11_0210_invoices_and_receipts': invoicesAndReceipts,
  '2026_12_11_0300_modem_quality': modemQuality,
  '2026_12_11_0400_tariff_trials_discounts': tariffTrialsDiscounts,
  '2026_12_11_0700_fingerprint_presets': fingerprintPresets,
  '2026_12_11_0800_job_kind_names': jobKindNames,
  '2026_12_12_1610_sandbox_payment_methods': sandboxPaymentMethods,
  '2026_12_12_1700_job_done_by': jobDoneBy,
  '2026_12_12_1710_ports_own_listening_numbers': portsOwnListeningNumbers,
  '2026_12_12_1720_host_served_state_version': hostServedStateVersion,
  '2026_12_12_1830_region_names': regionNames,
  '2026_12_12_1831_default_port_names': defaultPortNames,
  '2026_12_12_1870_port_numbers_check_by_number': portNumbersCheckByNumber,
  '2026_12_13_0600_port_numbers_lookups': portNumbersLookups,
  '2026_12_13_0601_port_numbers_check_planned_per_call': portNumbersCheckPlannedPerCall,
  '2026_12_13_0610_host_served_ports': hostServedPorts,
  '2026_12_13_0800_ports_with_whitelist': portsWithWhitelist,
  '2026_12_13_0810_mail_outbox_notification_delivery': mailOutboxNotificationDelivery,
};

import type { ColumnType, Generated } from 'kysely';

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  /** Unique: scheduling the same job twice keeps the first. */
  key: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  run_at: ColumnType<Date, Date | string, Date | string>;
  attempts: Generated<number>;
  last_error: string | null;
  done_at: Date | null;
  /** The process that ran it (`<role>@<host>:<pid>`, lib/instance-name.ts); null before 2026_12_12_1700_job_done_by. */
  done_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}
export interface JobsTables { jobs: JobsTable }

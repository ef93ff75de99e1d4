/** Remembers solved challenges so each is accepted once (`captcha-solutions.repository.ts` keeps them in the database). */
export interface SolutionStore {
  /** True the first time a challenge is presented, false on every replay. */
  claim(challenge: string, expiresAt: Date): Promise<boolean>;
}

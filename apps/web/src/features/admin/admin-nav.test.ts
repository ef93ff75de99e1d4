import { describe, expect, it } from 'vitest';
import { adminNavFor } from './admin-nav';

describe('adminNavFor', () => {
  it('maps a page and its detail views to one sidebar entry', () => {
    expect(adminNavFor('/')?.key).toBe('overview');
    expect(adminNavFor('/customers')?.key).toBe('customers');
    expect(adminNavFor('/customers/5d6c0b8e-0000-4000-8000-000000000000')?.key).toBe('customers');
    expect(adminNavFor('/audit')?.key).toBe('audit');
    expect(adminNavFor('/support/canned')?.key).toBe('support');
    expect(adminNavFor('/support/5d6c0b8e-0000-4000-8000-000000000000')?.key).toBe('support');
  });
  it('knows no other path', () => {
    expect(adminNavFor('/nope')).toBeNull();
    expect(adminNavFor('/dashboard')).toBeNull();
  });
});

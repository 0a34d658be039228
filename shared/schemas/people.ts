import { z } from 'zod';
import { ROLES } from '../roles';
import { email, phone, requiredText, text, updateOf } from './common';

export const COMPANY_STATUSES = ['pending', 'active', 'suspended'] as const;
export const BILLING_TYPES = ['prepaid', 'postpaid'] as const;

export const Company = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  code: z.string(),
  abn: z.string(),
  status: z.enum(COMPANY_STATUSES),
  billing_type: z.enum(BILLING_TYPES),
  currency: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
/**
 * A company's code names it in X-Courier-Company (signed webhooks). It must hold a letter, so it can
 * never be read as, or be mistaken for, another company's numeric id.
 */
export const companyCode = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .regex(/[A-Za-z]/, 'must contain a letter (a code cannot look like an id)');

export const CompanyCreate = z.object({
  name: requiredText(200),
  email: email(),
  phone: phone().default(''),
  address: text(500).default(''),
  code: companyCode(),
  abn: text(32).default(''),
  status: z.enum(COMPANY_STATUSES).default('active'),
  billing_type: z.enum(BILLING_TYPES).default('prepaid'),
  currency: z.string().trim().length(3).toUpperCase().default('AUD'),
});
export const CompanyUpdate = updateOf(CompanyCreate);
export const CompanyStatusBody = z.object({ status: z.enum(COMPANY_STATUSES) });

/** The identity documents kept for an employee (drivers mostly); path segment and column stem. */
export const EMPLOYEE_DOCUMENTS = ['driving-license', 'police-check', 'passport', 'visa'] as const;
export type EmployeeDocument = (typeof EMPLOYEE_DOCUMENTS)[number];

const fileUrl = z.string().nullable();
export const Employee = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  company: z.number().int().nullable(),
  is_active: z.boolean(),
  /** Where staff and the employee fetch each image; null when none is stored. */
  profile_image: fileUrl,
  documents: z.object({ driving_license: fileUrl, police_check: fileUrl, passport: fileUrl, visa: fileUrl }),
  archived_at: z.string().nullable(),
  created_at: z.string(),
});
export const EmployeeCreate = z.object({
  name: requiredText(200),
  email: email(),
  phone: phone().default(''),
  role: z.enum(ROLES),
  company: z.number().int().positive().nullable().optional(),
  password: z.string().min(8).max(128).optional(),
  is_active: z.boolean().default(true),
});
export const EmployeeUpdate = updateOf(EmployeeCreate);

ALTER TABLE invoices ADD COLUMN paid_at TIMESTAMPTZ;
CREATE INDEX invoices_paid_at_idx ON invoices (paid_at);

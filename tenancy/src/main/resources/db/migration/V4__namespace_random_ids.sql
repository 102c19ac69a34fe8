-- A namespace's id names its data directory and object-store prefix, so an id must never be handed
-- out twice. A sequence cannot promise that across a crash of a database that loses its last
-- commits (and ids of rows lost that way were handed out again, to other tenants, in earlier
-- releases), so from now on the service draws each new id at random from [2^62, 2^63): disjoint
-- from every sequence id handed out before, and too many to collide by chance. Rows keep their ids.
ALTER TABLE namespaces ALTER COLUMN id DROP IDENTITY;

package io.chronix.engine.catalog;

import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.StoredObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Bodies of the cold-tier catalog records ({@code docs/format/catalog.md}):
 *
 * <pre>
 *   ARCHIVED (12)     [u32 n] n × ([segment entry as in ADD_SEGMENTS][str key][i64 size][u32 crc32c][str etag][i64 archivedAt])
 *   COLD_REMOVED (13) [u32 n] n × [str key]
 * </pre>
 *
 * Applying {@code ARCHIVED} removes each entry's file from the hot set and adds the archived
 * segment; {@code COLD_REMOVED} drops archived segments by object key.
 */
final class ArchiveRecords {

    private ArchiveRecords() {
    }

    static byte[] encodeArchived(List<ArchivedSegment> segments) {
        CatalogFormat.Out o = new CatalogFormat.Out().u32(segments.size());
        for (ArchivedSegment a : segments) {
            CatalogFormat.encodeEntry(o, a.segment());
            StoredObject s = a.object();
            o.str(s.key()).i64(s.sizeBytes()).u32(s.crc32c()).str(s.etag()).i64(a.archivedAtNanos());
        }
        return o.bytes();
    }

    static List<ArchivedSegment> decodeArchived(java.nio.ByteBuffer body) throws CatalogFormat.BadBody {
        CatalogFormat.In in = new CatalogFormat.In(body);
        int n = in.count(8);
        List<ArchivedSegment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SegmentEntry e = CatalogFormat.decodeEntry(in);
            String key = in.str();
            long size = in.i64();
            int crc = in.u32();
            String etag = in.str();
            long at = in.i64();
            try {
                out.add(new ArchivedSegment(e, new StoredObject(key, size, crc, etag), at));
            } catch (IllegalArgumentException ex) {
                throw new CatalogFormat.BadBody(ex.getMessage());
            }
        }
        in.end();
        return out;
    }

    static byte[] encodeKeys(List<String> keys) {
        return CatalogFormat.encodeRemove(keys);
    }

    static List<String> decodeKeys(java.nio.ByteBuffer body) throws CatalogFormat.BadBody {
        return CatalogFormat.decodeRemove(body);
    }
}

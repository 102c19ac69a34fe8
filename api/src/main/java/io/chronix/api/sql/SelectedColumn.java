package io.chronix.api.sql;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * One column of an answer the engine gives itself that shows a column of the measurement as it is:
 * {@code *} expanded, or a column reference, named as DuckDB names it.
 *
 * @param name   the answer's column name (the alias, or the column's name)
 * @param column the measurement's column it shows
 */
public record SelectedColumn(String name, String column) {

    /**
     * The answer's schema: each selected column typed as the scan's column, nullable as DuckDB
     * reports every column of an answer.
     */
    static Schema schema(List<SelectedColumn> selected, Schema scan) {
        List<Field> fields = new ArrayList<>(selected.size());
        for (SelectedColumn s : selected) {
            fields.add(Field.nullable(s.name(), scan.findField(s.column()).getType()));
        }
        return new Schema(fields);
    }
}

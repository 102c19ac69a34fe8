package io.chronix.bench.query;

import io.chronix.bench.query.dialect.QueryDialect;

import java.net.URI;
import java.net.http.HttpRequest;

/** A dialect for the runner's tests: every query is a GET of {@code uri}, and every answer reads as {@code answer}. */
record FixedAnswerDialect(String name, URI uri, ResultTable answer) implements QueryDialect {

    @Override
    public String render(QueryInstance query) {
        return "q";
    }

    @Override
    public HttpRequest request(String text) {
        return HttpRequest.newBuilder(uri).GET().build();
    }

    @Override
    public ResultTable parse(String text) {
        return answer;
    }

    @Override
    public boolean ordersRows(QueryKind kind) {
        return true;
    }
}

"""Reductions and statistics: sums and scans, their NaN forms, order statistics
and moments, histograms."""

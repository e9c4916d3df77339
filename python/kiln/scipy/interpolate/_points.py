"""What every interpolant does with values it computed point by point
(flattened points on the first axis): NaN where a point lies outside and
extrapolation is off, then scipy.interpolate's result shape: the points'
shape followed by the data's trailing shape, with the points' axes at the
position of the data's interpolation axis."""
import kiln


def nan_where(outside, values):
    """`values` with NaN in the rows of the points marked `outside`."""
    return kiln.where(outside.reshape((-1,) + (1,) * (values.ndim - 1)), float("nan"), values)


def shaped_like_points(values, x_shape, axis):
    out = values.reshape(x_shape + values.shape[1:])
    if axis != 0:
        x_ndim = len(x_shape)
        order = list(range(out.ndim))
        out = out.transpose(order[x_ndim:x_ndim + axis] + order[:x_ndim] + order[x_ndim + axis:])
    return out
